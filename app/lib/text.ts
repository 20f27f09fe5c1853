/** Replaces the `{company}` placeholder in content copy with the page's company name. */
export function fillCompany(text: string, companyName: string): string {
  return text.replaceAll("{company}", companyName);
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
