/**
 * The pages a partner opens from a signed link (a job offer /r/…, a call to dispute /d/…, a statement
 * /statements/…): the token in the address is their access, so the page is never cached or indexed, and its address
 * never sent to another site as a referrer. Same-origin requests keep their origin: with "no-referrer" a browser
 * posts the page's own forms with `Origin: null`, which the cross-site check refuses, so a partner without
 * JavaScript (or a tap before the page's scripts ran) could not answer.
 */
export const signedLinkHeaders = () => ({
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
});

/** A signed link's page title, and no robot to index or follow it. */
export const signedLinkMeta = (title: string) => [{ title }, { name: "robots", content: "noindex, nofollow" }];
