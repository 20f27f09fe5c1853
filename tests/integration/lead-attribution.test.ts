import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { postJson, testEnv, validContact } from "../../tooling/local-services.ts";

/** How a visitor found the site travels with their lead: stored, and in the operator's email. */
describe("lead attribution", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testEnv({}));
  });
  afterAll(() => running.close());

  const storedLead = async (id: unknown) => {
    const [row] = await running.services.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.id, String(id)));
    const [email] = await running.services.db
      .select({ text: emailOutbox.textBody })
      .from(emailOutbox)
      .where(eq(emailOutbox.contactRequestId, String(id)));
    return { row: row!, email: email!.text };
  };

  test("fields of the JSON body are stored with the lead and shown in its email", async () => {
    const response = await postJson(running.url, {
      ...validContact,
      landing_path: "/",
      referrer_host: "www.google.com",
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "spring",
      gclid: "test-gclid",
    });
    expect(response.status).toBe(200);
    const { row, email } = await storedLead(response.body.id);
    expect(row).toMatchObject({
      landingPath: "/",
      referrerHost: "www.google.com",
      utmSource: "google",
      utmMedium: "cpc",
      utmCampaign: "spring",
      utmTerm: null,
      gclid: "test-gclid",
    });
    expect(email).toContain("Landing page: /");
    expect(email).toContain("utm_campaign: spring");
    expect(email).toContain("gclid: test-gclid");
  });

  test("unknown or oversized values are dropped and the lead is still stored", async () => {
    const response = await postJson(running.url, {
      ...validContact,
      landing_path: "javascript:alert(1)",
      referrer_host: "evil.example/path?x=1",
      utm_source: "x".repeat(101),
      utm_campaign: 42,
      gclid: "<script>",
      utm_medium: "email",
    });
    expect(response.status).toBe(200);
    const { row } = await storedLead(response.body.id);
    expect(row).toMatchObject({
      landingPath: null,
      referrerHost: null,
      utmSource: null,
      utmCampaign: null,
      gclid: null,
    });
    expect(row.utmMedium).toBe("email");
  });

  test("ad click ids are not kept under Global Privacy Control; campaign values are", async () => {
    const response = await postJson(
      running.url,
      { ...validContact, utm_source: "google", gclid: "test-gclid", fbclid: "fb-1" },
      { "Sec-GPC": "1" },
    );
    const { row, email } = await storedLead(response.body.id);
    expect(row).toMatchObject({ utmSource: "google", gclid: null, fbclid: null, globalPrivacyControl: true });
    expect(email).not.toContain("test-gclid");
  });

  test("a form posted without JavaScript keeps the Referer's path and campaign values", async () => {
    const response = await fetch(`${running.url}/contact`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "text/html",
        Referer: `${running.url}/contact?utm_source=newsletter&utm_campaign=autumn&gclid=abc_123`,
      },
      body: new URLSearchParams({ ...validContact, firstName: "NoScript" }).toString(),
    });
    expect(response.status).toBe(200);
    const [row] = await running.services.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.firstName, "NoScript"));
    expect(row).toMatchObject({
      landingPath: "/contact",
      utmSource: "newsletter",
      utmCampaign: "autumn",
      gclid: "abc_123",
    });
  });
});
