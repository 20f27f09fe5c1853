import type { Plugin } from "vite";

const SONNER_MODULE = /[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/;
const STYLE_INJECTION = /__insertCSS\("(?:[^"\\]|\\.)*"\);/;

/**
 * Sonner appends a <style> element at run time, which the CSP (style-src 'self') refuses. This drops
 * that call; the page links sonner/dist/styles.css as a built asset instead (decision 033). The build
 * fails if a sonner upgrade changes the call, rather than shipping toasts without styles.
 */
export function sonnerStylesheet(): Plugin {
  return {
    name: "plumbline:sonner-stylesheet",
    transform(code, id) {
      if (!SONNER_MODULE.test(id)) return null;
      if (!STYLE_INJECTION.test(code)) this.error(`sonner no longer injects its CSS as expected in ${id}`);
      return { code: code.replace(STYLE_INJECTION, ""), map: null };
    },
  };
}
