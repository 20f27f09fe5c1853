import { afterLoadAndFirstPaint } from "~/lib/after-first-paint.ts";

/**
 * Starts the app's scripts after the load event and the first paint instead of in the head.
 *
 * React Router puts modulepreload links in the head and an async module script in the body.
 * On a slow phone those downloads compete with the page's own HTML, CSS and text, and
 * Lighthouse measured LCP at 2.7× a plain static page (docs/decisions/003-deferred-hydration.md).
 * Every call link is a plain tel: link and clicks are tracked by an inline script, so nothing a
 * visitor needs waits for hydration.
 */

const MODULEPRELOAD_LINK = /<link rel="modulepreload"[^>]*\/?>/g;
const MODULE_SCRIPT_OPEN = /<script type="module" async=""([^>]*)>/g;
export const DEFERRED_MODULE_TYPE = "text/x-deferred-module";

/**
 * Once the page has loaded and painted, loads the whole stylesheet (the page itself carries only the rules it
 * uses, inline-stylesheet.server.ts), then swaps each deferred module script for a live one, so that whatever
 * the app shows is styled. Self-contained: serialised, and given the serialised afterLoadAndFirstPaint.
 */
function startDeferredModules(
  doc: Document,
  win: Window,
  deferredType: string,
  stylesheetHref: string | null,
  after: typeof afterLoadAndFirstPaint,
) {
  const startModules = () => {
    for (const inert of Array.from(doc.querySelectorAll(`script[type="${deferredType}"]`))) {
      const live = doc.createElement("script");
      live.type = "module";
      live.nonce = (inert as HTMLScriptElement).nonce;
      live.textContent = inert.textContent;
      inert.replaceWith(live);
    }
  };
  after(doc, win, () => {
    if (!stylesheetHref) return startModules();
    const stylesheet = doc.createElement("link");
    stylesheet.rel = "stylesheet";
    stylesheet.href = stylesheetHref;
    // A stylesheet that fails to load leaves the page as it is, and the app starts all the same.
    stylesheet.addEventListener("load", startModules, { once: true });
    stylesheet.addEventListener("error", startModules, { once: true });
    // Right after the page's own rules, ahead of every other stylesheet (the console's), which may override it.
    const inline = doc.head.querySelector("style");
    if (inline) inline.after(stylesheet);
    else doc.head.prepend(stylesheet);
  });
}

/** `stylesheetHref`: the whole stylesheet, loaded before the app starts, when the page carries only part of it. */
export function deferHydration(html: string, nonce?: string, stylesheetHref?: string): string {
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  const starter = `<script${nonceAttribute}>(${startDeferredModules.toString()})(document, window, ${JSON.stringify(DEFERRED_MODULE_TYPE)}, ${JSON.stringify(stylesheetHref ?? null)}, ${afterLoadAndFirstPaint.toString()});</script>`;
  return html
    .replace(MODULEPRELOAD_LINK, "")
    .replace(MODULE_SCRIPT_OPEN, `<script type="${DEFERRED_MODULE_TYPE}"$1>`)
    .replace("</body>", `${starter}</body>`);
}
