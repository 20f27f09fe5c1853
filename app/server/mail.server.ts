import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";

/** One rendered email, as the outbox stores it. */
export interface OutgoingEmail {
  /** The outbox row id, used to name .eml files so that a retry overwrites nothing twice. */
  id: string;
  messageId: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Where mail goes, for the start-up log (no credentials). */
  description: string;
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
}

/** SMTP when SMTP_URL is set; otherwise .eml files in OUTBOX_DIR, so a fresh `npm start` needs no mail server. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : fileMailer(options.outboxDir, options.from);
}

function message(email: OutgoingEmail, from: string) {
  return {
    from,
    to: email.to,
    replyTo: email.replyTo ?? undefined,
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: email.messageId,
  };
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 4,
    // Bounded, so a hung server cannot hold a message past the outbox lease (outbox.server.ts).
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  const { protocol, host } = new URL(smtpUrl);
  return {
    description: `SMTP at ${protocol}//${host}`,
    async send(email) {
      await transport.sendMail(message(email, from));
    },
    close: () => transport.close(),
  };
}

function fileMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    description: `.eml files in ${outboxDir} (no SMTP_URL set)`,
    async send(email) {
      const info = await transport.sendMail(message(email, from));
      await mkdir(outboxDir, { recursive: true });
      await writeFile(join(outboxDir, `${email.id}.eml`), info.message as Buffer);
    },
    close: () => transport.close(),
  };
}
