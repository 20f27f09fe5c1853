import { eq, sql } from "drizzle-orm";
import { TEXT_BACK_MESSAGE_MAX_LENGTH } from "~/lib/console-limits.ts";
import { escapeHtml } from "~/lib/escape-html.ts";
import type { Database } from "../db/index.server.ts";
import { emailRow } from "../outbox/index.server.ts";
import { textSettings } from "./schema.server.ts";

/** The missed-call text-back's message, as the operator sets it on the Texts page. */

const DEFAULT_TEXT_BACK_MESSAGE =
  "Sorry we missed your call. We will call you back shortly; reply here to tell us what you need.";

export async function textBackMessage(db: Database): Promise<string> {
  const [row] = await db
    .select({ message: textSettings.textBackMessage })
    .from(textSettings)
    .where(eq(textSettings.id, 1));
  return row?.message ?? DEFAULT_TEXT_BACK_MESSAGE;
}

export type SavedTextBack = { kind: "saved" } | { kind: "invalid"; error: string };

/** Saves the message: 1 to 300 characters, on one line or several. */
export async function saveTextBackMessage(db: Database, value: unknown): Promise<SavedTextBack> {
  const message = typeof value === "string" ? value.trim() : "";
  if (message.length === 0 || message.length > TEXT_BACK_MESSAGE_MAX_LENGTH) {
    return { kind: "invalid", error: `Write a message of 1 to ${TEXT_BACK_MESSAGE_MAX_LENGTH} characters.` };
  }
  await db
    .insert(textSettings)
    .values({ id: 1, textBackMessage: message })
    .onConflictDoUpdate({ target: textSettings.id, set: { textBackMessage: message, updatedAt: sql`now()` } });
  return { kind: "saved" };
}

/** The text a missed caller gets: the company's name first, the operator's message, and how to opt out. */
export function textBackBody(companyName: string, message: string): string {
  return `${companyName}: ${message} Reply STOP to opt out.`;
}

/** The answer to HELP: who is texting and how to reach them. */
export function helpReplyBody(companyName: string, phoneDisplay: string): string {
  return `${companyName}: for help call ${phoneDisplay}. Reply STOP to opt out.`;
}

/** The outbox purpose of the operator's email that the text-backs' hourly cap was reached. */
const TEXT_BACK_CAP_PURPOSE = "text_back_cap";

/**
 * The operator's email when the text-backs' hourly cap stops them: once in a clock hour. A caller ID can be
 * spoofed, so many missed calls from unknown numbers can be someone making the site send texts.
 */
export function textBackCapEmail(
  perHour: number,
  settings: { to: string; siteUrl: string; messageIdDomain: string },
): ReturnType<typeof emailRow> {
  const link = `${settings.siteUrl}/admin/calls`;
  const paragraphs = [
    `${perHour} missed-call text-backs went out in the last hour, the most MISSED_CALL_TEXT_PER_HOUR allows. Missed callers get no text until fewer went out in the past hour; their calls are still on the Calls page.`,
    "Many missed calls from numbers you do not know can be someone using made-up caller IDs to make the site send texts.",
  ];
  return emailRow(
    {
      purpose: TEXT_BACK_CAP_PURPOSE,
      to: settings.to,
      replyTo: null,
      subject: `Missed-call text-backs paused: ${perHour} in the last hour`,
      text: `${paragraphs.join("\n\n")}\n\nCalls: ${link}\n`,
      html: `<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:14px;color:#111">${paragraphs
        .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
        .join("")}<p><a href="${escapeHtml(link)}">Calls</a></p></body></html>`,
    },
    settings.messageIdDomain,
  );
}
