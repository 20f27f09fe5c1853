import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import {
  confirmFirst,
  createConsoleForms,
  done,
  invalid,
  revealed,
  type ConsoleForms,
  type Operator,
} from "~/server/console/index.server.ts";
import { consoleFormSubmissions, operators } from "../../app/server/console/schema.server.ts";
import { startPostgres, type TestPostgres } from "../../tooling/local-services.ts";

/**
 * Console forms on both databases: a form sent twice (one after the other, or both at once) acts once and answers
 * both times with the first result; a form that did not act gives its key back; the confirmation is said once, by
 * a signed cookie that nothing else can write.
 */

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

const drivers = [
  { name: "PGlite", open: () => openDatabase({ pgliteDataDir: "memory://" }) },
  {
    name: "PostgreSQL",
    open: async () => openDatabase({ databaseUrl: await postgres.createDatabase(), pgliteDataDir: "" }),
  },
];

const PAGE = "https://plumbline.example/admin/partners/1";

function sent(fields: Record<string, string>, path = PAGE): { request: Request; form: FormData } {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return { request: new Request(path, { method: "POST" }), form };
}

/** The Set-Cookie value a redirect carries, as the browser sends it back. */
function cookieOf(response: Response): string {
  return (response.headers.get("Set-Cookie") ?? "").split(";")[0]!;
}

for (const driver of drivers) {
  describe(`console forms on ${driver.name}`, () => {
    let database: OpenDatabase;
    let forms: ConsoleForms;
    let operator: Operator;
    beforeAll(async () => {
      database = await driver.open();
      forms = createConsoleForms({
        db: database.db,
        sessionSecret: "a".repeat(64),
        siteUrl: "https://plumbline.example",
      });
      const id = randomUUID();
      await database.db.insert(operators).values({ id, email: `${id}@operator.example`, passwordHash: "x" });
      operator = { id, email: `${id}@operator.example`, twoStep: false, sessionKey: "k" };
    });
    afterAll(() => database?.close());

    test("sent twice, one after the other or both at once, a form acts once and says the first result both times", async () => {
      let acted = 0;
      const act = async () => {
        acted += 1;
        await new Promise((resolve) => setTimeout(resolve, 150));
        return done(`Payment of $60.00 recorded (${acted}).`, "/admin/partners/1");
      };
      const formKey = `${forms.pageToken()}.payment`;
      const [first, second] = await Promise.all([
        forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, act),
        forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, act),
      ]);
      const third = await forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, act);
      // Sent by script, the same form goes to the page's data URL.
      await forms.once(sent({ formKey }, `${PAGE}.data?index`).request, operator, sent({ formKey }).form, act);
      expect(acted).toBe(1);
      for (const answer of [first, second, third]) {
        expect(answer).toBeInstanceOf(Response);
        const response = answer as Response;
        expect(response.status).toBe(303);
        expect(response.headers.get("Location")).toBe("/admin/partners/1");
        const flash = forms.takeFlash(new Request(PAGE, { headers: { Cookie: `other=1; ${cookieOf(response)}` } }));
        expect(flash?.said).toMatchObject({ message: "Payment of $60.00 recorded (1).", form: formKey });
        expect(flash?.setCookie).toMatch(/^plumbline_flash=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/);
      }
      // The same form's name on another page, or another page view's form, is another form.
      const elsewhere = `${PAGE.replace(/1$/, "2")}`;
      await forms.once(sent({ formKey }, elsewhere).request, operator, sent({ formKey }).form, act);
      // A page whose URL ends in "/" has its data at "_.data" under it.
      const nextView = `${forms.pageToken()}.payment`;
      for (const path of [`${PAGE}/`, `${PAGE}/_.data`]) {
        await forms.once(sent({ formKey: nextView }, path).request, operator, sent({ formKey: nextView }).form, act);
      }
      expect(acted).toBe(3);
    });

    test("a form that did not act gives its key back, and asks first without taking it", async () => {
      const formKey = `${forms.pageToken()}.adjustment`;
      const errors = await forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, async () =>
        invalid({ amount: "Enter the amount." }),
      );
      expect(errors).toMatchObject({ data: { amount: "Enter the amount." }, init: { status: 400 } });
      const question = await forms.once(
        sent({ formKey, amount: "20" }).request,
        operator,
        sent({ formKey, amount: "20", intent: "adjustment" }).form,
        async () => confirmFirst("Add $20.00 to what Pat's Pipes owes?", "Yes, record adjustment"),
      );
      expect(question).toMatchObject({
        data: {
          confirm: {
            formKey,
            question: "Add $20.00 to what Pat's Pipes owes?",
            confirmLabel: "Yes, record adjustment",
            fields: [
              ["formKey", formKey],
              ["amount", "20"],
              ["intent", "adjustment"],
            ],
          },
        },
      });
      const recorded = await forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, async () =>
        done("Adjustment of $20.00 recorded.", "/admin/partners/1"),
      );
      expect((recorded as Response).status).toBe(303);
      // An action that throws gives its key back too.
      const failing = `${forms.pageToken()}.save`;
      await expect(
        forms.once(sent({ formKey: failing }).request, operator, sent({ formKey: failing }).form, async () => {
          throw new Error("down");
        }),
      ).rejects.toThrow("down");
      const rows = await database.db
        .select({ formKey: consoleFormSubmissions.formKey })
        .from(consoleFormSubmissions)
        .where(sql`${consoleFormSubmissions.formKey} LIKE ${`%${failing}`}`);
      expect(rows).toEqual([]);
    });

    test("a new key is shown once; sent again, the form leads to the page with the message only", async () => {
      const formKey = `${forms.pageToken()}.create`;
      const shown = await forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, async () =>
        revealed("Key “ci” created.", "/admin/api-keys", { key: "plk_secret" }),
      );
      expect(shown).toMatchObject({
        data: { key: "plk_secret", said: { message: "Key “ci” created.", form: formKey } },
      });
      const again = (await forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, async () =>
        revealed("Key “ci” created.", "/admin/api-keys", { key: "plk_other" }),
      )) as Response;
      expect(again.headers.get("Location")).toBe("/admin/api-keys");
      expect(forms.takeFlash(new Request(PAGE, { headers: { Cookie: cookieOf(again) } }))?.said?.message).toBe(
        "Key “ci” created.",
      );
    });

    test("a form without its key, or with a malformed one, is refused; a forged confirmation is not shown", async () => {
      const malformed: Record<string, string>[] = [
        {},
        { formKey: "../../x" },
        { formKey: `${forms.pageToken()}.PAYMENT` },
      ];
      for (const fields of malformed) {
        await expect(
          forms.once(sent(fields).request, operator, sent(fields).form, async () => done("Done.", "/admin")),
        ).rejects.toMatchObject({ init: { status: 400 } });
      }
      const payload = Buffer.from(JSON.stringify({ message: "Forged", at: Date.now() })).toString("base64url");
      const forged = forms.takeFlash(new Request(PAGE, { headers: { Cookie: `plumbline_flash=${payload}.abc` } }));
      expect(forged).toMatchObject({ said: null });
      expect(forms.takeFlash(new Request(PAGE))).toBeNull();
    });

    test("keys older than a day are forgotten", async () => {
      const formKey = `${forms.pageToken()}.activate`;
      await forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, async () =>
        done("Done.", "/admin"),
      );
      await database.db.execute(
        sql`UPDATE ${consoleFormSubmissions} SET sent_at = now() - interval '25 hours' WHERE form_key LIKE ${`%${formKey}`}`,
      );
      await forms.prune();
      let acted = false;
      await forms.once(sent({ formKey }).request, operator, sent({ formKey }).form, async () => {
        acted = true;
        return done("Done.", "/admin");
      });
      expect(acted).toBe(true);
    });
  });
}
