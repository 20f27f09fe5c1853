/**
 * Starts the app's scripts after the load event instead of in the head.
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

/** Swaps each deferred module script for a live one once the page has loaded. Self-contained: serialised. */
function startDeferredModules(doc: Document, win: Window, deferredType: string) {
  const start = () => {
    for (const inert of Array.from(doc.querySelectorAll(`script[type="${deferredType}"]`))) {
      const live = doc.createElement("script");
      live.type = "module";
      live.nonce = (inert as HTMLScriptElement).nonce;
      live.textContent = inert.textContent;
      inert.replaceWith(live);
    }
  };
  if (doc.readyState === "complete") setTimeout(start, 0);
  else win.addEventListener("load", () => setTimeout(start, 0), { once: true });
}

export function deferHydration(html: string, nonce?: string): string {
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  const starter = `<script${nonceAttribute}>(${startDeferredModules.toString()})(document, window, ${JSON.stringify(DEFERRED_MODULE_TYPE)});</script>`;
  return html
    .replace(MODULEPRELOAD_LINK, "")
    .replace(MODULE_SCRIPT_OPEN, `<script type="${DEFERRED_MODULE_TYPE}"$1>`)
    .replace("</body>", `${starter}</body>`);
}
