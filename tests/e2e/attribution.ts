import { expect, type Page } from "@playwright/test";

/**
 * A phone's browser. Headless Chromium names itself HeadlessChrome, which the site rightly takes for a bot and
 * does not count, so the visitors in these tests present themselves as people's browsers do.
 */
export const VISITOR_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** One row of the dashboard's daily counts CSV. */
interface CountRow {
  day: string;
  path: string;
  kind: string;
  placement: string;
  source: string;
  medium: string;
  campaign: string;
  count: number;
}

/** The daily counts of the last 7 days, as the signed-in operator downloads them from the dashboard. */
export async function countRows(page: Page): Promise<CountRow[]> {
  const response = await page.request.get("/admin/export/site-events.csv?days=7");
  expect(response.status()).toBe(200);
  const [header, ...lines] = (await response.text()).trimEnd().split("\r\n");
  expect(header).toBe("day,path,kind,placement,source,medium,campaign,count");
  return lines.map((line) => {
    // The values the tests send hold no commas or quotes, so a plain split reads them.
    const [day, path, kind, placement, source, medium, campaign, count] = line.split(",");
    return {
      day: day!,
      path: path!,
      kind: kind!,
      placement: placement!,
      source: source!,
      medium: medium!,
      campaign: campaign!,
      count: Number(count),
    };
  });
}

/** The count of the rows matching `match`, summed. */
export function countOf(rows: CountRow[], match: Partial<CountRow>): number {
  return rows
    .filter((row) => Object.entries(match).every(([key, value]) => row[key as keyof CountRow] === value))
    .reduce((sum, row) => sum + row.count, 0);
}

/** Keeps tel: links from leaving the page in a test, after the site's own capture-phase listener has seen the click. */
export async function stayOnPageForTelLinks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.addEventListener("click", (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href^="tel:"]') : null;
      if (link) event.preventDefault();
    });
  });
}
