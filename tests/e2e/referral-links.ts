import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, type Browser } from "@playwright/test";
import PostalMime from "postal-mime";

// playwright.config.ts points the test server's OUTBOX_DIR here.
const OUTBOX_DIR = join(process.cwd(), "test-results/outbox");

/** The referral link in the offer email written for a partner's address. */
export async function referralLinkSentTo(address: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      async () => {
        for (const file of await readdir(OUTBOX_DIR).catch(() => [])) {
          const mail = await PostalMime.parse(await readFile(join(OUTBOX_DIR, file)));
          const sentTo = (mail.to ?? []).some((to) => "address" in to && to.address === address);
          const found = /https?:\/\/\S+\/r\/\S+/.exec(mail.text ?? "")?.[0];
          if (sentTo && found) link = found;
        }
        return link;
      },
      { timeout: 10_000 },
    )
    .not.toBe("");
  return link;
}

/** The text of every email written to an address whose subject matches, once there is one. */
export async function emailTextsTo(address: string, subject: RegExp): Promise<string[]> {
  let texts: string[] = [];
  await expect
    .poll(
      async () => {
        texts = [];
        for (const file of await readdir(OUTBOX_DIR).catch(() => [])) {
          const mail = await PostalMime.parse(await readFile(join(OUTBOX_DIR, file)));
          const sentTo = (mail.to ?? []).some((to) => "address" in to && to.address === address);
          if (sentTo && subject.test(mail.subject ?? "")) texts.push(mail.text ?? "");
        }
        return texts.length;
      },
      { timeout: 10_000 },
    )
    .toBeGreaterThan(0);
  return texts;
}

/** A partner opens their link on their own phone: no session, nothing shared with the operator's browser. */
export async function partnerPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
  return context.newPage();
}
