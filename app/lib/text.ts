/** Replaces the `{company}` placeholder in content copy with the page's company name. */
export function fillCompany(text: string, companyName: string): string {
  return text.replaceAll("{company}", companyName);
}
