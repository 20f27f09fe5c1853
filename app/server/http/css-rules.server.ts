/**
 * The site's built stylesheet as a tree of rules, for choosing the rules a page uses (inline-stylesheet.server.ts).
 * It reads minified CSS as Tailwind writes it: style rules are not nested, and only grouping at-rules
 * (@media, @supports, @layer …) hold other rules.
 */

/** One declaration; `property` is its name (`--tw-shadow`, `color`). */
export interface Declaration {
  property: string;
  text: string;
}

/** A selector of a rule's list, and the classes and elements a page must have for it to match. */
export interface Selector {
  text: string;
  classes: string[];
  elements: string[];
}

/** A style rule, a grouping rule holding rules, a custom property's registration, or anything kept whole. */
export type CssNode =
  | { kind: "style"; selectors: Selector[]; declarations: Declaration[] }
  | { kind: "group"; prelude: string; children: CssNode[] }
  | { kind: "property"; name: string; text: string }
  | { kind: "whole"; text: string };

/** At-rules whose blocks hold style rules; every other at-rule (@keyframes, @font-face) is kept whole. */
const GROUPING_AT_RULE = /^@(media|supports|layer|container|scope|starting-style)\b/;

export function parseStylesheet(css: string): CssNode[] {
  return parseRules(css, 0, css.length);
}

function parseRules(css: string, start: number, end: number): CssNode[] {
  const nodes: CssNode[] = [];
  let at = start;
  while (at < end) {
    while (at < end && /\s/.test(css[at]!)) at += 1;
    if (css.startsWith("/*", at)) {
      // Comments go, but for the license notice (`/*! … */`).
      const close = css.indexOf("*/", at + 2);
      const commentEnd = close === -1 ? end : close + 2;
      if (css[at + 2] === "!") nodes.push({ kind: "whole", text: css.slice(at, commentEnd) });
      at = commentEnd;
      continue;
    }
    const delimiter = nextDelimiter(css, at, end);
    const prelude = css.slice(at, delimiter).trim();
    if (delimiter >= end || css[delimiter] !== "{") {
      // A statement such as `@layer theme,base;`.
      if (prelude) nodes.push({ kind: "whole", text: `${prelude};` });
      at = delimiter + 1;
      continue;
    }
    const close = blockEnd(css, delimiter);
    const text = css.slice(at, close + 1).trim();
    if (GROUPING_AT_RULE.test(prelude)) {
      nodes.push({ kind: "group", prelude, children: parseRules(css, delimiter + 1, close) });
    } else if (prelude.startsWith("@property ")) {
      nodes.push({ kind: "property", name: prelude.slice("@property ".length).trim(), text });
    } else if (prelude.startsWith("@")) {
      nodes.push({ kind: "whole", text });
    } else {
      nodes.push({
        kind: "style",
        selectors: splitTopLevel(prelude, ",").map((selector) => ({
          text: selector,
          ...selectorRequirements(selector),
        })),
        declarations: splitTopLevel(css.slice(delimiter + 1, close), ";")
          .filter(Boolean)
          .map((declaration) => ({
            property: declaration.slice(0, declaration.indexOf(":")).trim(),
            text: declaration,
          })),
      });
    }
    at = close + 1;
  }
  return nodes;
}

/** Where the string or escape starting at `at` ends; `at` itself otherwise. */
function skipQuotedOrEscaped(css: string, at: number): number {
  const char = css[at];
  if (char === "\\") return at + 1;
  if (char !== '"' && char !== "'") return at;
  let end = at + 1;
  while (end < css.length && css[end] !== char) end += css[end] === "\\" ? 2 : 1;
  return end;
}

/** The index of the next `{`, `;` or `}`, outside strings and escapes. */
function nextDelimiter(css: string, from: number, end: number): number {
  for (let at = from; at < end; at += 1) {
    at = skipQuotedOrEscaped(css, at);
    if (css[at] === "{" || css[at] === ";" || css[at] === "}") return at;
  }
  return end;
}

/** The index of the `}` that closes the block opened at `open`. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let at = open; at < css.length; at += 1) {
    at = skipQuotedOrEscaped(css, at);
    if (css[at] === "{") depth += 1;
    else if (css[at] === "}" && --depth === 0) return at;
  }
  throw new Error("The stylesheet cannot be read: a block is not closed");
}

/** `text` split at `separator`, but not inside brackets, parentheses, strings or escapes. */
function splitTopLevel(text: string, separator: "," | ";"): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let at = 0; at < text.length; at += 1) {
    at = skipQuotedOrEscaped(text, at);
    const char = text[at];
    if (char === "(" || char === "[") depth += 1;
    else if (char === ")" || char === "]") depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(from, at).trim());
      from = at + 1;
    }
  }
  parts.push(text.slice(from).trim());
  return parts;
}

/** Pseudo-elements and states of form fields that the base styles name without an element: `input`'s. */
const FORM_FIELD_PSEUDO = /^::?(-webkit-|-moz-ui-|file-selector-button|placeholder)/;

/**
 * What a page must hold for the selector to match anything: the classes of its element and its ancestors
 * (`.sm\:flex` is the class `sm:flex`), and the element names (`table`, `hr`). What is inside parentheses
 * (`:not(.a)`, `:is(.a,.b)`) is not required, and is left out.
 */
function selectorRequirements(selector: string): Pick<Selector, "classes" | "elements"> {
  const classes: string[] = [];
  const elements: string[] = [];
  let depth = 0;
  let compoundStart = true;
  for (let at = 0; at < selector.length; at += 1) {
    const char = selector[at]!;
    const startsCompound = compoundStart && depth === 0;
    compoundStart = false;
    if (char === "\\" || char === '"' || char === "'") at = skipQuotedOrEscaped(selector, at);
    else if (char === "(") depth += 1;
    else if (char === ")") depth -= 1;
    else if (/[\s>+~]/.test(char)) compoundStart = true;
    else if (char === "[") {
      // An attribute selector: what it holds is not a class.
      while (at < selector.length && selector[at] !== "]") at = skipQuotedOrEscaped(selector, at) + 1;
    } else if (char === ".") {
      const name = /^(?:\\[0-9a-fA-F]{1,6} ?|\\.|[\w-])+/.exec(selector.slice(at + 1))?.[0] ?? "";
      if (name && depth === 0) classes.push(unescapeIdentifier(name));
      at += name.length;
    } else if (startsCompound && /[a-z]/i.test(char)) {
      const name = /^[a-z][\w-]*/i.exec(selector.slice(at))![0];
      elements.push(name.toLowerCase());
      at += name.length - 1;
    } else if (startsCompound && char === ":" && FORM_FIELD_PSEUDO.test(selector.slice(at))) elements.push("input");
  }
  return { classes, elements };
}

function unescapeIdentifier(name: string): string {
  return name.replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g, (_, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : char!,
  );
}
