import { afterLoadAndFirstPaint } from "~/lib/after-first-paint.ts";

/**
 * Starts the app's scripts, and the inline scripts React Router writes for them, after the load event and the
 * first paint instead of in the head.
 *
 * React Router puts modulepreload links in the head and an async module script in the body.
 * On a slow phone those downloads compete with the page's own HTML, CSS and text, and
 * Lighthouse measured LCP at 2.7× a plain static page (docs/decisions/003-deferred-hydration.md).
 * Every call link is a plain tel: link and clicks are tracked by an inline script, so nothing a
 * visitor needs waits for hydration.
 */

const MODULEPRELOAD_LINK = /<link rel="modulepreload"[^>]*\/?>/g;
const SCRIPT_OPEN = /<script\b([^>]*)>/g;
export const DEFERRED_MODULE_TYPE = "text/x-deferred-module";
export const DEFERRED_SCRIPT_TYPE = "text/x-deferred-script";

/**
 * Where the scripts React Router writes at the end of the body for hydration begin (scroll restoration, the
 * router's context and route data, the module script): the run of scripts and React's comment markers right
 * before `</body>`. They are needed only once the app starts, so they wait with it; the page's own inline
 * scripts (the call-link listener, an early tap on the quiz) come before, inside the page, and run at once.
 */
function hydrationScriptsStart(html: string, bodyEnd: number): number {
  let start = bodyEnd;
  for (;;) {
    const opening = html.startsWith("-->", start - 3)
      ? html.lastIndexOf("<!--", start - 3)
      : html.startsWith("</script>", start - 9)
        ? html.lastIndexOf("<script", start - 9)
        : -1;
    if (opening === -1) return start;
    start = opening;
  }
}

/**
 * Once the page has loaded and painted, loads the whole stylesheet (the page itself carries only the rules it
 * uses, inline-stylesheet.server.ts), then swaps each deferred script for a live one in document order, so
 * that whatever the app shows is styled: a classic script runs as it is inserted, before the modules start.
 * Self-contained: serialised, and given the serialised afterLoadAndFirstPaint.
 */
function startDeferredScripts(
  doc: Document,
  win: Window,
  types: { script: string; module: string },
  stylesheetHref: string | null,
  after: typeof afterLoadAndFirstPaint,
) {
  const startScripts = () => {
    for (const inert of Array.from(
      doc.querySelectorAll<HTMLScriptElement>(`script[type="${types.script}"],script[type="${types.module}"]`),
    )) {
      const live = doc.createElement("script");
      if (inert.type === types.module) live.type = "module";
      live.nonce = inert.nonce;
      live.textContent = inert.textContent;
      inert.replaceWith(live);
    }
  };
  after(doc, win, () => {
    if (!stylesheetHref) return startScripts();
    const stylesheet = doc.createElement("link");
    stylesheet.rel = "stylesheet";
    stylesheet.href = stylesheetHref;
    // A stylesheet that fails to load leaves the page as it is, and the app starts all the same.
    stylesheet.addEventListener("load", startScripts, { once: true });
    stylesheet.addEventListener("error", startScripts, { once: true });
    // Right after the page's own rules, ahead of every other stylesheet (the console's), which may override it.
    const inline = doc.head.querySelector("style");
    if (inline) inline.after(stylesheet);
    else doc.head.prepend(stylesheet);
  });
}

/** `stylesheetHref`: the whole stylesheet, loaded before the app starts, when the page carries only part of it. */
export function deferHydration(html: string, nonce?: string, stylesheetHref?: string): string {
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  const types = { script: DEFERRED_SCRIPT_TYPE, module: DEFERRED_MODULE_TYPE };
  const starter = `<script${nonceAttribute}>(${startDeferredScripts.toString()})(document, window, ${JSON.stringify(types)}, ${JSON.stringify(stylesheetHref ?? null)}, ${afterLoadAndFirstPaint.toString()});</script>`;
  const bodyEnd = html.lastIndexOf("</body>");
  if (bodyEnd === -1) return html.replace(MODULEPRELOAD_LINK, "");
  const scriptsStart = hydrationScriptsStart(html, bodyEnd);
  const hydrationScripts = html.slice(scriptsStart, bodyEnd).replace(SCRIPT_OPEN, (opening, attributes: string) => {
    if (/\stype="module"/.test(attributes)) {
      const rest = attributes.replace(/\s(?:type="module"|async="")/g, "");
      return `<script type="${DEFERRED_MODULE_TYPE}"${rest}>`;
    }
    return /\s(?:type|src)=/.test(attributes) ? opening : `<script type="${DEFERRED_SCRIPT_TYPE}"${attributes}>`;
  });
  return `${html.slice(0, scriptsStart).replace(MODULEPRELOAD_LINK, "")}${hydrationScripts}${starter}${html.slice(bodyEnd)}`;
}
