import { chmod, mkdir, writeFile } from "node:fs/promises";
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
  /** Resolves once the mail server has accepted the message. Aborting closes its connection. */
  send(email: OutgoingEmail, signal: AbortSignal): Promise<void>;
  /**
   * Emails sent at once: as many as the SMTP pool's connections, as more would only wait in its queue. Written as
   * files, more at once would make one long burst of work on the server's thread, holding leads' answers meanwhile.
   */
  sendsAtOnce: number;
  close(): void;
}

const SENDS_AT_ONCE = 4;

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
    maxConnections: SENDS_AT_ONCE,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    // A server may take minutes to answer the end of a message (RFC 5321 allows it 10). Giving up sooner
    // would leave a message it may still deliver, and the retry a duplicate; the outbox keeps its lease meanwhile.
    socketTimeout: 600_000,
  });
  const { protocol, host } = new URL(smtpUrl);
  return {
    description: `SMTP at ${protocol}//${host}`,
    sendsAtOnce: SENDS_AT_ONCE,
    async send(email, signal) {
      await transport.sendMail({ ...message(email, from), signal });
    },
    close: () => transport.close(),
  };
}

/** .eml files hold leads' personal data: readable by the server's user only. */
function fileMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    description: `.eml files in ${outboxDir} (no SMTP_URL set)`,
    sendsAtOnce: SENDS_AT_ONCE,
    async send(email) {
      const info = await transport.sendMail(message(email, from));
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      // mkdir leaves an existing folder's mode as it was.
      await chmod(outboxDir, 0o700);
      await writeFile(join(outboxDir, `${email.id}.eml`), info.message as Buffer, { mode: 0o600 });
    },
    close: () => transport.close(),
  };
}
