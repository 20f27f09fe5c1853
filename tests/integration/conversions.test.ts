import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type RunningServer } from "~/server/start-server.server.ts";
import { saveOperator } from "../../app/server/console/operators.server.ts";
import { conversionDownloads, adSpend } from "../../app/server/conversions/schema.server.ts";
import { sendDueDigest, type DigestSettings } from "../../app/server/conversions/index.server.ts";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { ledgerEntries } from "../../app/server/ledger/schema.server.ts";
import { partners } from "../../app/server/partners/schema.server.ts";
import {
  postJson,
  startPostgres,
  startSmtpPeer,
  testEnv,
  validContact,
  waitUntil,
  type SmtpPeer,
  type TestPostgres,
} from "../../tooling/local-services.ts";

const PASSWORD = "a long enough password";

/** Two instances of the site on one PostgreSQL, as behind a load balancer, with an operator signed in to the first. */
let postgres: TestPostgres;
let smtp: SmtpPeer;
let first: RunningServer;
let second: RunningServer;
let cookie: string;

beforeAll(async () => {
  postgres = await startPostgres();
  smtp = await startSmtpPeer();
  const env = testEnv({
    DATABASE_URL: await postgres.createDatabase(),
    SMTP_URL: smtp.url,
    SESSION_SECRET: "a shared secret for both instances, 32+ characters",
  });
  first = await startServer(env);
  second = await startServer(env);
  await saveOperator(first.services.db, "ops@example.com", PASSWORD);
  const signedIn = await fetch(`${first.url}/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: first.url },
    body: new URLSearchParams({ email: "ops@example.com", password: PASSWORD }).toString(),
    redirect: "manual",
  });
  cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await smtp?.stop();
  await postgres?.stop();
});

const post = (path: string, body: URLSearchParams | FormData) =>
  fetch(`${first.url}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: first.url },
    body,
    redirect: "manual",
  });

/**
 * A console form sent as the browser sends it: with the one-time key of the page it was rendered on (the page's
 * token and the form's name), and the form's name as its intent.
 */
const sendForm = async (path: string, name: string, body: URLSearchParams | FormData, row?: string) => {
  const page = await (await fetch(`${first.url}${path}`, { headers: { Cookie: cookie } })).text();
  const pageToken = /name="formKey" value="([^".]+)\./.exec(page)?.[1];
  expect(pageToken, `no console form on ${path}`).toBeDefined();
  body.set("intent", name);
  body.set("formKey", row ? `${pageToken}.${name}.${row}` : `${pageToken}.${name}`);
  return post(path, body);
};

const download = async (platform: "google" | "microsoft") => {
  const response = await post("/admin/conversions/download", new URLSearchParams({ platform }));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z-]+-\d{4}-\d\d-\d\d\.csv"$/);
  return response.text();
};

const lead = async (clickIds: Record<string, string>) => {
  const response = await postJson(first.url, { ...validContact, utm_source: "google", ...clickIds });
  expect(response.status).toBe(200);
  return String(response.body.id);
};

describe("conversion downloads", () => {
  test("a second download holds only conversions no earlier download of that platform held", async () => {
    const booked = await lead({ gclid: "gclid-first", msclkid: "msclkid-first" });
    const firstFile = await download("google");
    expect(firstFile).toContain("\r\ngclid-first,Lead,");

    await lead({ gclid: "gclid-second" });
    const status = await sendForm(
      `/admin/leads/${booked}`,
      "update",
      new URLSearchParams({ status: "Booked", note: "" }),
    );
    expect(status.status).toBe(303);
    const jobValue = await sendForm(`/admin/leads/${booked}`, "job-value", new URLSearchParams({ jobValue: "480" }));
    expect(jobValue.status).toBe(303);

    const secondFile = await download("google");
    const rows = secondFile.split("\r\n").slice(2, -1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^gclid-second,Lead,/);
    expect(rows[1]).toMatch(/^gclid-first,Booked job,.*,480\.00,USD,,$/);
    expect((await download("google")).split("\r\n").slice(2, -1)).toEqual([]);

    // Microsoft's downloads are their own: its first holds the lead and the booked job.
    const microsoft = (await download("microsoft")).split("\r\n").slice(2, -1);
    expect(microsoft.map((row) => row.split(",").slice(0, 2).join(","))).toEqual([
      "msclkid-first,Lead",
      "msclkid-first,Booked job",
    ]);
  });

  test("a platform's scheduled fetch: wrong credentials 401 alike, the right ones the next file, then only what is new", async () => {
    // The operator makes Google's username and password on the Scheduled fetch page; the password is shown once.
    const made = await sendForm(
      "/admin/conversions/scheduled",
      "roll",
      new URLSearchParams({ platform: "google" }),
      "google",
    );
    expect(made.status).toBe(200);
    const [username, password] = [...(await made.text()).matchAll(/<code[^>]*>([^<]+)<\/code>/g)].map((m) => m[1]!);
    expect(username).toMatch(/^google-[0-9a-f]{8}$/);
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);

    await download("google");
    await lead({ gclid: "gclid-scheduled" });
    // Fetched from the other instance, as the platform's scheduler would reach either.
    const fetchFile = (authorization?: string) =>
      fetch(`${second.url}/conversions/scheduled/google.csv`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
    const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
    const refusals = [
      await fetchFile(),
      await fetchFile(basic(username!, "not-the-password")),
      await fetchFile(basic("someone-else", password!)),
      await fetchFile(`Bearer ${password}`),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Basic realm="Conversions"/);
      expect(await refused.text()).toBe("Unauthorized.\n");
    }
    const downloadsBefore = (await first.services.db.select().from(conversionDownloads)).length;

    const fetched = await fetchFile(basic(username!, password!));
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await fetched.text()).split("\r\n");
    // Google Ads' import format: its parameters line, its header, then one row per conversion.
    expect(lines[0]).toMatch(/^Parameters:TimeZone=/);
    expect(lines[1]).toBe((await download("google")).split("\r\n")[1]);
    expect(lines.slice(2, -1).map((row) => row.split(",").slice(0, 2).join(","))).toEqual(["gclid-scheduled,Lead"]);

    // The next fetch holds only what is new since; each fetch is listed with the downloads.
    await lead({ gclid: "gclid-scheduled-later" });
    const later = (await (await fetchFile(basic(username!, password!))).text()).split("\r\n").slice(2, -1);
    expect(later.map((row) => row.split(",")[0])).toEqual(["gclid-scheduled-later"]);
    expect((await first.services.db.select().from(conversionDownloads)).length).toBe(downloadsBefore + 3);

    // Rolling asks first: the password in use keeps working until the operator says yes.
    const asked = await sendForm(
      "/admin/conversions/scheduled",
      "roll",
      new URLSearchParams({ platform: "google" }),
      "google",
    );
    expect(await asked.text()).toContain("Roll the password for Google Ads?");
    expect((await fetchFile(basic(username!, password!))).status).toBe(200);
    // A rolled password: the old one stops at once. Tries are limited per client, right or wrong.
    const yes = new URLSearchParams({ platform: "google", confirmed: "yes" });
    const rolled = await sendForm("/admin/conversions/scheduled", "roll", yes, "google");
    const [sameUser, newPassword] = [...(await rolled.text()).matchAll(/<code[^>]*>([^<]+)<\/code>/g)].map(
      (m) => m[1]!,
    );
    expect(sameUser).toBe(username);
    expect((await fetchFile(basic(username!, password!))).status).toBe(401);
    expect((await fetchFile(basic(username!, newPassword!))).status).toBe(200);
    // The same form sent again (a double click, a reload) makes no other password: the new one keeps working.
    const again = await post("/admin/conversions/scheduled", yes);
    expect([again.status, again.headers.get("location")]).toEqual([303, "/admin/conversions/scheduled"]);
    expect((await fetchFile(basic(username!, newPassword!))).status).toBe(200);
    let status = 0;
    for (let tries = 0; tries < 20 && status !== 429; tries++)
      status = (await fetchFile(basic(username!, "guess"))).status;
    expect(status).toBe(429);
  });

  test("a past download is fetched again exactly as it was, and listed with its row count", async () => {
    const [oldest] = await first.services.db
      .select()
      .from(conversionDownloads)
      .where(eq(conversionDownloads.platform, "google"))
      .orderBy(conversionDownloads.createdAt)
      .limit(1);
    // Leads, bookings and settings changed since; the file does not.
    const saved = await sendForm(
      "/admin/conversions",
      "actions",
      new URLSearchParams({
        "lead-name": "Website lead",
        "lead-value": "5",
        "lead-enabled": "on",
        "booked-name": "Job",
        "booked-value": "",
        "booked-enabled": "on",
        "referral-name": "Referral accepted",
        "referral-value": "",
        "referral-enabled": "on",
      }),
    );
    expect(saved.status).toBe(303);
    const again = await fetch(`${second.url}/admin/conversions/downloads/${oldest!.id}`, {
      headers: { Cookie: cookie },
    });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(oldest!.body);
    expect(oldest!.rowCount).toBe(1);

    const page = await (await fetch(`${first.url}/admin/conversions`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain(`/admin/conversions/downloads/${oldest!.id}`);
    expect(
      (await fetch(`${first.url}/admin/conversions/downloads/not-an-id`, { headers: { Cookie: cookie } })).status,
    ).toBe(404);
  });

  test("two downloads at once, on two instances, never both hold a conversion", async () => {
    await Promise.all(["a", "b", "c"].map((id) => lead({ msclkid: `msclkid-concurrent-${id}` })));
    const files = await Promise.all(
      [first, second].map(async (running) => {
        const response = await fetch(`${running.url}/admin/conversions/download`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: running.url },
          body: new URLSearchParams({ platform: "microsoft" }),
        });
        expect(response.status).toBe(200);
        return (await response.text()).split("\r\n").slice(2, -1);
      }),
    );
    expect(
      files
        .flat()
        .map((row) => row.split(",")[0])
        .sort(),
    ).toEqual(["msclkid-concurrent-a", "msclkid-concurrent-b", "msclkid-concurrent-c"]);
  });

  test("a lead marked Spam, or sent under Global Privacy Control, is never in a download", async () => {
    const spam = await lead({ gclid: "gclid-spam" });
    await sendForm(`/admin/leads/${spam}`, "update", new URLSearchParams({ status: "Spam", note: "" }));
    const gpc = await postJson(first.url, { ...validContact, gclid: "gclid-gpc" }, { "Sec-GPC": "1" });
    expect(gpc.status).toBe(200);
    const file = await download("google");
    expect(file).not.toContain("gclid-spam");
    expect(file).not.toContain("gclid-gpc");
  });

  test("a do-not-sell request keeps its person's earlier leads out of every later download, Google's and Microsoft's", async () => {
    const email = "opted.out@example.com";
    const stored = await postJson(first.url, {
      ...validContact,
      email,
      gclid: "gclid-opted-out",
      msclkid: "msclkid-opted-out",
    });
    expect(stored.status).toBe(200);
    const optOut = await postJson(first.url, { name: "Opted Out", email: "Opted.Out@example.com", type: "opt-out" });
    expect(optOut.status).toBe(200);
    expect(await download("google")).not.toContain("gclid-opted-out");
    expect(await download("microsoft")).not.toContain("msclkid-opted-out");
  });
});

describe("spend upload", () => {
  const upload = (csv: BlobPart) => {
    const form = new FormData();
    form.set("file", new Blob([csv], { type: "text/csv" }), "spend.csv");
    return sendForm("/admin/conversions", "spend-csv", form);
  };
  const savedSpend = () => first.services.db.select().from(adSpend);

  test("names each bad row and field, and saves nothing", async () => {
    const response = await upload(
      "Month,Source,Campaign,Amount\n2026-10,google,spring,1200\n2026-13,google,fall,$80\n",
    );
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Line 3, Month: Enter the month as yyyy-mm, like 2026-11.");
    expect(page).toContain("Line 3, Amount: Enter the amount such as 1500 or 1,250.50, without a currency sign.");
    expect(await savedSpend()).toEqual([]);
  });

  test("the spend form, refused, names the field and keeps what was typed", async () => {
    const response = await sendForm(
      "/admin/conversions",
      "spend",
      new URLSearchParams({
        month: "2026-11",
        source: "google",
        campaign: "typed-campaign",
        amount: "12,34",
      }),
    );
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain("Enter the amount such as 1500 or 1,250.50, without a currency sign.");
    expect(page).toContain('value="typed-campaign"');
    expect(await savedSpend()).toEqual([]);
  });

  test("refuses a file over 64 KB, a file that is not UTF-8, and no file", async () => {
    expect((await upload(`Month,Source,Campaign,Amount\n${"2026-10,google,x,1\n".repeat(4_000)}`)).status).toBe(413);
    expect((await upload(new Uint8Array([0x4d, 0xff, 0xfe, 0x0a]))).status).toBe(400);
    expect((await sendForm("/admin/conversions", "spend-csv", new FormData())).status).toBe(400);
    expect(await savedSpend()).toEqual([]);
  });

  test("a good file is saved, each row replacing the same month, source and campaign", async () => {
    expect(
      (await upload("Month,Source,Campaign,Amount\n2026-10,google,spring,1200\n2026-10,bing,,80.5\n")).status,
    ).toBe(303);
    expect((await upload("Month,Source,Campaign,Amount\n2026-10,google,spring,900\n")).status).toBe(303);
    const rows = await first.services.db.select().from(adSpend).orderBy(desc(adSpend.source));
    expect(rows.map((row) => [row.month, row.source, row.campaign, row.amountCents])).toEqual([
      ["2026-10-01", "google", "spring", 90_000],
      ["2026-10-01", "bing", "", 8_050],
    ]);
  });
});

describe("weekly digest", () => {
  const digestSettings: DigestSettings = {
    timeZone: "America/New_York",
    currency: "USD",
    leadsEmailTo: "leads@operator.example",
    mailFrom: "Plumbline <no-reply@plumbline.example>",
    companyName: "Plumbline",
    siteUrl: "https://plumbline.example",
  };

  test("two instances on one PostgreSQL send it once, last week against the week before", async () => {
    // Monday 2026-11-23, 08:00 in New York. Last week: Nov 16–22.
    const monday = new Date("2026-11-23T13:00:00Z");
    const settings = digestSettings;
    await first.services.db
      .insert(adSpend)
      .values({ month: "2026-11-01", source: "google", campaign: "spring", amountCents: 30_000 });
    await first.services.db.insert(contactRequests).values({
      id: "00000000-0000-4000-8000-0000000000d1",
      receivedAt: new Date("2026-11-18T15:00:00Z"),
      firstName: "Ann",
      lastName: "Lee",
      email: "ann@example.com",
      phone: "555-123-4567",
      service: "Leak",
      message: "Help",
      consentText: "By submitting…",
      channel: "form",
      utmSource: "google",
      utmCampaign: "spring",
    });
    // A partner accepted a referral last week: revenue $45.00.
    const [partner] = await first.services.db
      .insert(partners)
      .values({
        name: "Pat",
        business: "Pat's Pipes",
        phone: "555-010-0000",
        email: "pat@partner.example",
        services: ["Drain Services"],
        zipCodes: ["10001"],
      })
      .returning({ id: partners.id });
    await first.services.db.insert(ledgerEntries).values({
      partnerId: partner!.id,
      kind: "charge",
      amountMinor: 4_500,
      recordedAt: new Date("2026-11-18T16:00:00Z"),
      source: "google",
      campaign: "spring",
    });
    const before = smtp.received.length;

    const attempts = await Promise.all(
      [first, second, first, second].map(({ services }) => sendDueDigest(services.db, services.run, settings, monday)),
    );
    expect(attempts.filter(Boolean)).toHaveLength(1);
    // Later the same day, and the next week's Monday before 08:00: nothing more.
    expect(
      await sendDueDigest(second.services.db, second.services.run, settings, new Date("2026-11-23T20:00:00Z")),
    ).toBe(false);
    expect(await sendDueDigest(first.services.db, first.services.run, settings, new Date("2026-11-30T12:59:00Z"))).toBe(
      false,
    );

    first.services.outbox.nudge();
    await waitUntil(() => smtp.received.length > before);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const digests = smtp.received.filter((mail) => mail.subject.includes("weekly digest"));
    expect(digests).toHaveLength(1);
    const [digest] = digests;
    expect(digest!.to).toEqual(["leads@operator.example"]);
    expect(digest!.subject).toBe("Plumbline weekly digest: Nov 16–Nov 22");
    expect(digest!.text).toContain(
      "Plumbline: last week (Nov 16–Nov 22) against the week before (Nov 9–Nov 15), days in America/New_York.",
    );
    expect(digest!.text).toContain("Leads: 1 (week before: 0, new)");
    expect(digest!.text).toContain("Spend: $70.00 (week before: $70.00, +0%)");
    expect(digest!.text).toContain("Revenue: $45.00 (week before: $0.00, new)");
    expect(digest!.text).toContain("Profit: -$25.00 (week before: -$70.00, +64%)");
    expect(digest!.text).toContain("google / spring: $70.00 (week before: –)");
    expect(digest!.text).toContain("The dashboard: https://plumbline.example/admin/dashboard?days=7");
    const queued = await first.services.db.select().from(emailOutbox).where(eq(emailOutbox.purpose, "weekly_digest"));
    expect(queued).toHaveLength(1);
  });

  test("a source's spend entered for all its campaigns is divided by each of its leads once", async () => {
    // Monday 2026-10-19, 08:00 in New York. Last week: Oct 12–18, a week of October's $310.00 for facebook: $70.00.
    const monday = new Date("2026-10-19T12:00:00Z");
    await first.services.db
      .insert(adSpend)
      .values({ month: "2026-10-01", source: "facebook", campaign: "", amountCents: 31_000 });
    const campaigns = ["", "", "", "spring", "spring"];
    await first.services.db.insert(contactRequests).values(
      campaigns.map((campaign, index) => ({
        id: `00000000-0000-4000-8000-0000000000e${index}`,
        receivedAt: new Date(`2026-10-1${3 + index}T15:00:00Z`),
        firstName: "Ann",
        lastName: "Lee",
        email: "ann@example.com",
        phone: "555-123-4567",
        service: "Leak",
        message: "Help",
        consentText: "By submitting…",
        channel: "form" as const,
        utmSource: "facebook",
        utmCampaign: campaign || null,
      })),
    );
    const before = smtp.received.length;
    expect(await sendDueDigest(first.services.db, first.services.run, digestSettings, monday)).toBe(true);
    first.services.outbox.nudge();
    await waitUntil(() => smtp.received.length > before);
    const digest = smtp.received.find((mail) => mail.subject.includes("Oct 12–Oct 18"));
    expect(digest!.text).toContain("Leads: 5 (week before: 0, new)");
    // $70.00 over 5 leads, not over the 3 without a campaign counted twice.
    expect(digest!.text).toContain("facebook (all campaigns): $14.00 (week before: –)");
  });
});
