import { parseStylesheet, type CssNode, type Declaration } from "./css-rules.server.ts";

const CHARSET_META = '<meta charSet="utf-8"/>';

/**
 * Puts the CSS a page uses into its head, right after its charset, so that the first view needs no stylesheet
 * request before it can render and carries no rule it cannot use:
 * - a selector goes when it requires a class that no class attribute of the page names, or an element the page
 *   does not have (the base styles of `table` or date fields), and a rule goes with its last selector;
 * - a custom property (`--tw-shadow`, a theme colour) goes, with its registration, when nothing left reads it.
 * Whatever the app shows later with other classes is styled by the whole stylesheet, which the page loads
 * before its scripts start (deferred-hydration.server.ts).
 *
 * The element stays outside React's tree: hydration skips elements it did not render in the head and keeps
 * them even if it has to render the page again. The CSP allows it by hash on prerendered pages and by the
 * response's nonce on rendered ones.
 */
export function inlineStylesheet(html: string, css: string, nonce?: string): string {
  if (css.includes("</style")) throw new Error("The site's CSS cannot be inlined: it contains </style");
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  const rules = rulesMatching(parsedStylesheet(css), pageContents(html));
  const pageCss = serialize(rules, customPropertiesRead(rules));
  return html.replace(CHARSET_META, `${CHARSET_META}<style${nonceAttribute}>${pageCss}</style>`);
}

let parsed: { css: string; nodes: CssNode[] } | undefined;

/** The site's stylesheet is one string for the life of the process: it is parsed once. */
function parsedStylesheet(css: string): CssNode[] {
  if (parsed?.css !== css) parsed = { css, nodes: parseStylesheet(css) };
  return parsed.nodes;
}

interface PageContents {
  classes: Set<string>;
  elements: Set<string>;
}

/** Every class named in the page's class attributes (with React's attribute escapes undone), and every element. */
function pageContents(html: string): PageContents {
  const classes = new Set<string>();
  for (const [, value = ""] of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of decodeAttribute(value).split(/\s+/)) if (name) classes.add(name);
  }
  const elements = new Set(Array.from(html.matchAll(/<([a-zA-Z][\w-]*)/g), ([, name]) => name!.toLowerCase()));
  return { classes, elements };
}

const ATTRIBUTE_ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&quot;": '"',
  "&#x27;": "'",
  "&lt;": "<",
  "&gt;": ">",
};

function decodeAttribute(value: string): string {
  return value.replace(/&(amp|quot|#x27|lt|gt);/g, (entity) => ATTRIBUTE_ENTITIES[entity]!);
}

/** The rules with only the selectors that can match something on the page; rules and groups left empty go. */
function rulesMatching(nodes: CssNode[], page: PageContents): CssNode[] {
  const kept: CssNode[] = [];
  for (const node of nodes) {
    if (node.kind === "group") {
      const children = rulesMatching(node.children, page);
      if (children.length > 0) kept.push({ ...node, children });
    } else if (node.kind === "style") {
      const selectors = node.selectors.filter(
        ({ classes, elements }) =>
          classes.every((name) => page.classes.has(name)) && elements.every((name) => page.elements.has(name)),
      );
      if (selectors.length > 0) kept.push({ ...node, selectors });
    } else kept.push(node);
  }
  return kept;
}

const VAR_READ = /var\(\s*(--[\w-]+)/g;

/**
 * The custom properties that matter to the rules: those read by a real property (`box-shadow: var(--tw-shadow)`)
 * or by an at-rule kept whole, and those read by the custom properties that matter, transitively.
 */
function customPropertiesRead(nodes: CssNode[]): Set<string> {
  const readBy = new Map<string, string[]>();
  const read = new Set<string>();
  const visit = (node: CssNode) => {
    if (node.kind === "group") node.children.forEach(visit);
    else if (node.kind === "whole") for (const [, name] of node.text.matchAll(VAR_READ)) read.add(name!);
    else if (node.kind === "style") {
      for (const { property, text } of node.declarations) {
        const names = Array.from(text.matchAll(VAR_READ), ([, name]) => name!);
        if (!property.startsWith("--")) names.forEach((name) => read.add(name));
        else readBy.set(property, [...(readBy.get(property) ?? []), ...names]);
      }
    }
  };
  nodes.forEach(visit);
  const pending = [...read];
  while (pending.length > 0) {
    for (const name of readBy.get(pending.pop()!) ?? []) {
      if (!read.has(name)) {
        read.add(name);
        pending.push(name);
      }
    }
  }
  return read;
}

function serialize(nodes: CssNode[], propertiesRead: Set<string>): string {
  const matters = ({ property }: Declaration) => !property.startsWith("--") || propertiesRead.has(property);
  let out = "";
  for (const node of nodes) {
    if (node.kind === "whole") out += node.text;
    else if (node.kind === "property") out += propertiesRead.has(node.name) ? node.text : "";
    else if (node.kind === "group") {
      const inner = serialize(node.children, propertiesRead);
      if (inner) out += `${node.prelude}{${inner}}`;
    } else {
      const declarations = node.declarations.filter(matters);
      if (declarations.length > 0) {
        out += `${node.selectors.map((selector) => selector.text).join(",")}{${declarations.map((d) => d.text).join(";")}}`;
      }
    }
  }
  return out;
}
