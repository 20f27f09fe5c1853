import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, type Page, type Route } from "@playwright/test";

/** Helpers for the two lead forms' specs. */

export const LEAD_ENDPOINT = "**/functions/v1/send-contact-email";
// playwright.config.ts points the test server's OUTBOX_DIR here (no SMTP in the browser tests).
const OUTBOX_DIR = join(process.cwd(), "test-results/outbox");

/** Holds each request to the lead endpoint until `release` is called, then lets it reach the server. */
export async function holdLeadRequests(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const bodies: unknown[] = [];
  await page.route(LEAD_ENDPOINT, async (route: Route) => {
    bodies.push(route.request().postDataJSON());
    await released;
    await route.continue();
  });
  return { release, bodies };
}

/**
 * Makes the page's next submit a plain POST to the route action, as from a visitor who submits before
 * the scripts have run (they start after the load event): scripts are refused until that POST is sent.
 * The page the server answers with loads them and hydrates.
 */
export async function submitBeforeHydration(page: Page) {
  let posted = false;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.resourceType() === "document") posted = true;
  });
  await page.route("**/*.js", (route) => (posted ? route.fallback() : route.abort()));
}

/** A glob for the built chunk that holds sonner (the toasts), found in the build by its Toaster's attribute. */
export function sonnerChunkUrl(): string {
  const assetsDir = join(process.cwd(), "build/client/assets");
  const chunks = readdirSync(assetsDir).filter(
    (file) => file.endsWith(".js") && readFileSync(join(assetsDir, file), "utf8").includes("data-sonner-toaster"),
  );
  expect(chunks, "the chunks that hold sonner").toHaveLength(1);
  return `**/assets/${chunks[0]}`;
}

/** Waits for an email the server wrote for a lead, found by a text unique to the test. */
export async function expectEmailContaining(marker: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const files = await readdir(OUTBOX_DIR).catch(() => []);
        const contents = await Promise.all(files.map((file) => readFile(join(OUTBOX_DIR, file), "utf8")));
        return contents.some((content) => content.includes(marker));
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}

export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

/**
 * A word no other lead holds, of letters only: a search with three digits or more also matches phone numbers
 * containing them, so a marker with digits found other tests' leads by their phones now and then.
 */
export function uniqueMarker(): string {
  return `e2e${Array.from(randomBytes(12), (byte) => String.fromCharCode(97 + (byte % 26))).join("")}`;
}
