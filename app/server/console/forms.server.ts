import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { data, redirect, type UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { CONFIRMED_FIELD, FORM_KEY_FIELD, type Confirmation, type Said } from "~/lib/console-form.ts";
import type { Database } from "../db/index.server.ts";
import { consoleFormSubmissions } from "./schema.server.ts";
import type { Operator } from "./sessions.server.ts";

/**
 * Every console form, the way Stripe's dashboard behaves: an action is done once however often its form is sent
 * (a double click, a reload, the back button), an action that cannot be undone is asked about first, and what was
 * done is said on the page the action leads to (POST, redirect, GET), once.
 *
 * Each page view carries a fresh token; a form's one-time key is that token with the form's name (and row). The
 * first sending of a key takes it in the database, shared by every instance, and keeps the outcome; a later one
 * waits for that outcome and answers with it. The confirmation travels in a signed cookie that lives a minute, is
 * set only on the console's answers to a signed-in operator, and is cleared by the page that shows it.
 */

/** What a form's action did, said on the page it leads to: "Payment of $60.00 recorded". */
interface Done {
  done: string;
  to: string;
}
/**
 * Done, and something shown this once on the page that answers (a new key): no redirect, and no reload can repeat
 * it; a form sent again goes to `to` with the message only.
 */
interface Revealed<P> {
  revealed: P;
  message: string;
  to: string;
}
/** The form's errors, shown beside it: nothing was done. */
interface Invalid<T> {
  invalid: T;
  status?: number;
}
/** Nothing done yet: the question, and the button that does it. */
interface ConfirmFirst {
  confirm: string;
  confirmLabel: string;
}
type ActionResult = Done | Revealed<unknown> | Invalid<unknown> | ConfirmFirst;
/** What an action can answer with besides a redirect, whichever of its forms it comes from. */
type ErrorsOf<R> = R extends Invalid<infer T> ? T : R extends Revealed<infer P> ? P : never;

export const done = (message: string, to: string): Done => ({ done: message, to });
export const revealed = <P>(message: string, to: string, shown: P): Revealed<P> => ({ revealed: shown, message, to });
export const invalid = <T>(errors: T, status = 400): Invalid<T> => ({ invalid: errors, status });
export const confirmFirst = (question: string, confirmLabel: string): ConfirmFirst => ({
  confirm: question,
  confirmLabel,
});
/** Whether the operator has answered the question of an action that cannot be undone. */
export const confirmed = (form: FormData): boolean => form.get(CONFIRMED_FIELD) === "yes";

export type FormActionData<T> = Partial<T> & { confirm?: Confirmation; said?: Said };

const FLASH_COOKIE = "plumbline_flash";
const FLASH_SECONDS = 60;
/** The page view's token, the form's name, and its row's id if the page has one such form a row. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{22}\.[a-z-]{1,40}(?:\.[A-Za-z0-9_-]{1,64})?$/;
/** How long a form sent again waits for the first sending still at work, and how often it looks. */
const REPEAT_WAIT_MS = 10_000;
const REPEAT_POLL_MS = 100;
/** Keys are kept a day: long enough for any back button, short enough to stay a small table. */
const KEPT_HOURS = 24;

export interface ConsoleForms {
  /** A fresh token for the forms of one page view. */
  pageToken(): string;
  /** The confirmation waiting in the request's cookie, if any, with the Set-Cookie value that clears it. */
  takeFlash(request: Request): { said: Said | null; setCookie: string } | null;
  /** Runs a form's action once per key; see the module's comment. */
  once<R extends ActionResult>(
    request: Request,
    operator: Operator,
    form: FormData,
    act: () => Promise<R>,
  ): Promise<Response | DataWithResponseInit<FormActionData<ErrorsOf<R>>>>;
  /** Hourly: forgets keys older than a day. */
  prune(): Promise<void>;
}

export function createConsoleForms(options: { db: Database; sessionSecret: string; siteUrl: string }): ConsoleForms {
  const { db } = options;
  const flashKey = createHmac("sha256", options.sessionSecret).update("console flash").digest();
  const secure = new URL(options.siteUrl).protocol === "https:" ? "; Secure" : "";
  const sign = (payload: string) => createHmac("sha256", flashKey).update(payload).digest("base64url");
  const flashCookie = (message: string, form: string) => {
    const said: Said = { message, form, at: Date.now() };
    const payload = Buffer.from(JSON.stringify(said)).toString("base64url");
    return `${FLASH_COOKIE}=${payload}.${sign(payload)}; Path=/; Max-Age=${FLASH_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
  };
  const clearedFlash = `${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
  const finish = (outcome: { message: string; to: string }, form: string) =>
    redirect(outcome.to, { status: 303, headers: { "Set-Cookie": flashCookie(outcome.message, form) } });

  /** Takes the key for this sending, or finds what the first sending did (null: it gave the key back). */
  async function take(operatorId: string, formKey: string): Promise<"taken" | { message: string; to: string }> {
    const deadline = Date.now() + REPEAT_WAIT_MS;
    for (;;) {
      const [inserted] = await db
        .insert(consoleFormSubmissions)
        .values({ operatorId, formKey })
        .onConflictDoNothing()
        .returning({ formKey: consoleFormSubmissions.formKey });
      if (inserted) return "taken";
      const [first] = await db
        .select({ outcome: consoleFormSubmissions.outcome })
        .from(consoleFormSubmissions)
        .where(and(eq(consoleFormSubmissions.operatorId, operatorId), eq(consoleFormSubmissions.formKey, formKey)));
      if (first?.outcome) return first.outcome;
      if (Date.now() > deadline) throw data("This form is still being sent: reload the page in a moment.", 409);
      // Still at work (or given back just now: the next turn takes it).
      await new Promise((resolve) => setTimeout(resolve, REPEAT_POLL_MS));
    }
  }

  const giveBack = (operatorId: string, formKey: string) =>
    db
      .delete(consoleFormSubmissions)
      .where(
        and(
          eq(consoleFormSubmissions.operatorId, operatorId),
          eq(consoleFormSubmissions.formKey, formKey),
          isNull(consoleFormSubmissions.outcome),
        ),
      );

  return {
    pageToken: () => randomBytes(16).toString("base64url"),

    takeFlash(request) {
      const cookie = (request.headers.get("Cookie") ?? "")
        .split(";")
        .map((part) => part.trim())
        .find((part) => part.startsWith(`${FLASH_COOKIE}=`));
      if (!cookie) return null;
      const [payload = "", signature = ""] = cookie.slice(FLASH_COOKIE.length + 1).split(".");
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      let said: Said | null = null;
      if (given.length === expected.length && timingSafeEqual(given, expected)) {
        const flash = JSON.parse(Buffer.from(payload, "base64url").toString()) as Said;
        if (Date.now() - flash.at < FLASH_SECONDS * 1000) said = flash;
      }
      // A forged or stale one is cleared all the same.
      return { said, setCookie: clearedFlash };
    },

    async once<R extends ActionResult>(request: Request, operator: Operator, form: FormData, act: () => Promise<R>) {
      type Answer = FormActionData<ErrorsOf<R>>;
      const formKey = form.get(FORM_KEY_FIELD);
      if (typeof formKey !== "string" || !KEY_PATTERN.test(formKey)) {
        throw data("This form is out of date: reload the page and send it again.", 400);
      }
      // A form sent by script goes to the page's data URL (/admin/partners.data, or /admin/partners/_.data for
      // /admin/partners/), which is the same form as the page's own.
      const path = new URL(request.url).pathname.replace(/(\/)_\.data$|\.data$/, "$1");
      const key = `${path} ${formKey}`;
      const first = await take(operator.id, key);
      if (first !== "taken") return finish(first, formKey);
      const keep = (outcome: { message: string; to: string }) =>
        db
          .update(consoleFormSubmissions)
          .set({ outcome })
          .where(and(eq(consoleFormSubmissions.operatorId, operator.id), eq(consoleFormSubmissions.formKey, key)));
      let result: ActionResult;
      try {
        result = await act();
      } catch (error) {
        await giveBack(operator.id, key);
        throw error;
      }
      if ("done" in result) {
        const outcome = { message: result.done, to: result.to };
        await keep(outcome);
        return finish(outcome, formKey);
      }
      if ("revealed" in result) {
        await keep({ message: result.message, to: result.to });
        const said: Said = { message: result.message, form: formKey, at: Date.now() };
        return data({ ...(result.revealed as object), said } as Answer);
      }
      await giveBack(operator.id, key);
      if ("invalid" in result) return data(result.invalid as Answer, { status: result.status ?? 400 });
      const fields = [...form.entries()].flatMap(([name, value]) =>
        typeof value === "string" && name !== CONFIRMED_FIELD ? [[name, value] as [string, string]] : [],
      );
      const confirm = { formKey, question: result.confirm, confirmLabel: result.confirmLabel, fields };
      return data({ confirm } as Answer);
    },

    async prune() {
      await db
        .delete(consoleFormSubmissions)
        .where(lt(consoleFormSubmissions.sentAt, sql`now() - ${KEPT_HOURS} * interval '1 hour'`));
    },
  };
}
