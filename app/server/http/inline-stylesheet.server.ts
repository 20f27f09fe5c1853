const CHARSET_META = '<meta charSet="utf-8"/>';

/**
 * Puts the site's CSS into the page's head, right after its charset, so that the first view needs no
 * stylesheet request before it can render. The element stays outside React's tree: hydration skips
 * elements it did not render in the head and keeps them even if it has to render the page again. The
 * CSP allows it by hash on prerendered pages and by the response's nonce on rendered ones.
 */
export function inlineStylesheet(html: string, css: string, nonce?: string): string {
  if (css.includes("</style")) throw new Error("The site's CSS cannot be inlined: it contains </style");
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  return html.replace(CHARSET_META, `${CHARSET_META}<style${nonceAttribute}>${css}</style>`);
}
