/** Replaces the `{company}` placeholder in content copy with the page's company name. */
export function fillCompany(text: string, companyName: string): string {
  return fillPlaceholders(text, { company: companyName });
}

/** Replaces each `{name}` whose name is in `values`; other braces are left as they are. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

export type TextSegment = { text: string; href?: string };

const LINK = /\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Splits copy with `[label](/path)` or `[label](mailto:…)` links into plain and linked segments. */
export function linkSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    if (match.index > last) segments.push({ text: text.slice(last, match.index) });
    segments.push({ text: match[1]!, href: match[2]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

/** fillCompany on every string inside plain content data (objects and arrays); other values pass through. */
export function fillCompanyDeep<T>(content: T, companyName: string): T {
  if (typeof content === "string") return fillCompany(content, companyName) as T;
  if (Array.isArray(content)) return content.map((item: unknown) => fillCompanyDeep(item, companyName)) as T;
  if (content !== null && typeof content === "object") {
    return Object.fromEntries(
      Object.entries(content).map(([key, value]) => [key, fillCompanyDeep(value, companyName)]),
    ) as T;
  }
  return content;
}
