import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, inArray, isNull, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { contactRequests } from "../../app/server/leads/schema.server.ts";
import { emailOutbox } from "../../app/server/outbox/schema.server.ts";
import { startServerProcess, type ServerProcess } from "../../tooling/server-process.ts";
import {
  freePort,
  startPostgres,
  startSmtpPeer,
  validContact,
  waitUntil,
  type SmtpPeer,
  type TestPostgres,
} from "../../tooling/local-services.ts";

const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const LEADS = 300;
const KILL_AFTER = 100;
const POST_LIMIT = 20;

const deployConfig = () => readFile(new URL("../../docs/deploy/nginx.conf", import.meta.url), "utf8");

/** docs/deploy/nginx.conf, exactly as documented, with test values for its placeholders. */
async function siteConfig(values: Record<string, string>): Promise<string> {
  const template = await deployConfig();
  const filled = template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`No test value for {{${name}}}`);
    return values[name]!;
  });
  return filled;
}

/** nginx as any user can run it: its own prefix, pid, temp and log paths in `dir`, in the foreground. */
async function startNginx(dir: string, site: string): Promise<ChildProcess> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx was not found at ${NGINX}. Install it with: sudo apt-get install -y nginx (or set NGINX_PATH).`,
    );
  }
  for (const sub of ["logs", "temp"]) await mkdir(join(dir, sub), { recursive: true });
  // Run as root, nginx's workers drop to "nobody", who must reach the temp folders.
  await chmod(dir, 0o755);
  await chmod(join(dir, "temp"), 0o777);
  await writeFile(join(dir, "site.conf"), site);
  const temp = (name: string) => `${name}_temp_path ${join(dir, "temp", name)};`;
  await writeFile(
    join(dir, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "logs", "error.log")} warn;
events { worker_connections 256; }
http {
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
  include ${join(dir, "site.conf")};
}
`,
  );
  const nginx = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "logs", "error.log")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  nginx.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")));
  await waitUntil(async () => {
    if (nginx.exitCode !== null) throw new Error(`nginx did not start: ${errors}`);
    return readFile(join(dir, "nginx.pid"), "utf8").then(
      () => true,
      () => false,
    );
  });
  return nginx;
}

interface Answer {
  status: number;
  body: string;
}

/** POST JSON through nginx from a given loopback address, so that each "visitor" has an address of its own. */
function post(url: string, from: string, body: unknown): Promise<Answer> {
  const { port } = new URL(url);
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path: "/functions/v1/send-contact-email",
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) },
        agent: false,
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
        res.on("error", () => resolve({ status: 0, body: text }));
      },
    );
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end(payload);
  });
}

describe("two instances behind nginx on one PostgreSQL", () => {
  let postgres: TestPostgres;
  let smtp: SmtpPeer;
  let databaseUrl: string;
  let dir: string;
  let nginx: ChildProcess | undefined;
  let nginxUrl: string;
  const instances: ServerProcess[] = [];
  let serverEnv: (port: number) => Record<string, string>;
  let ports: number[];

  beforeAll(async () => {
    [postgres, smtp, dir] = await Promise.all([
      startPostgres(),
      startSmtpPeer(),
      mkdtemp(join(tmpdir(), "plumbline-nginx-")),
    ]);
    databaseUrl = await postgres.createDatabase();
    ports = [await freePort(), await freePort()];
    serverEnv = (port) => ({
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtp.url,
      // As docs/guides/deploy.md says: nginx on the same machine is the one proxy trusted.
      TRUST_PROXY: "loopback",
      POST_RATE_LIMIT_PER_MINUTE: String(POST_LIMIT),
      FORM_RATE_LIMIT_PER_HOUR: "100000",
      OUTBOX_POLL_MS: "200",
      OUTBOX_RETRY_BASE_MS: "100",
      OUTBOX_RETRY_MAX_MS: "1000",
      LEADS_EMAIL_TO: "leads@operator.example",
      LOG_LEVEL: "debug",
    });
    // One after the other: each applies the migrations under a lock, and two cores are shared.
    instances.push(await startServerProcess(serverEnv(ports[0]!)));
    instances.push(await startServerProcess(serverEnv(ports[1]!)));
    const nginxPort = await freePort();
    nginx = await startNginx(
      dir,
      await siteConfig({
        UPSTREAM_SERVERS: ports.map((port) => `server 127.0.0.1:${port} max_fails=1 fail_timeout=10s;`).join("\n    "),
        LISTEN: `127.0.0.1:${nginxPort}`,
        SERVER_NAME: "localhost",
        TLS: "",
        ACCESS_LOG: join(dir, "logs", "access.log"),
      }),
    );
    nginxUrl = `http://127.0.0.1:${nginxPort}`;
  }, 180_000);

  afterAll(async () => {
    nginx?.kill("SIGTERM");
    await Promise.all(instances.map((instance) => instance.kill("SIGKILL")));
    await smtp?.stop();
    await postgres?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("docs/guides/deploy.md shows the tested nginx config verbatim", async () => {
    const guide = await readFile(new URL("../../docs/guides/deploy.md", import.meta.url), "utf8");
    expect(guide).toContain(await deployConfig());
  });

  test("the per-minute POST limit is counted across both instances", async () => {
    const answers: number[] = [];
    for (let attempt = 0; attempt < POST_LIMIT + 10; attempt++) {
      answers.push((await post(nginxUrl, "127.0.2.1", { not: "a lead" })).status);
    }
    expect(answers.filter((status) => status === 429)).toHaveLength(10);
    // nginx spread the requests over both instances (each logs the requests it served).
    for (const instance of instances) expect(instance.output()).toContain('"path":"/functions/v1/send-contact-email"');
  });

  test(`${LEADS} leads while one instance is SIGKILLed: every acknowledged lead is stored and emailed`, async () => {
    const db = drizzle({ client: new pg.Pool({ connectionString: databaseUrl, max: 2 }) });
    try {
      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      let answered = 0;
      let killedAt: Promise<void> | undefined;
      let next = 0;
      const visitor = async () => {
        while (next < LEADS) {
          const index = next++;
          // 30 visitors of 10 leads each, all under the POST limit.
          const from = `127.0.1.${(index % 30) + 1}`;
          const answer = await post(nginxUrl, from, { ...validContact, service: `Job ${index}` });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 200) acknowledged.push((JSON.parse(answer.body) as { id: string }).id);
          if (++answered === KILL_AFTER) killedAt = instances[0]!.kill("SIGKILL");
        }
      };
      await Promise.all(Array.from({ length: 8 }, visitor));
      await killedAt;

      // Every answered 200 is stored.
      expect(acknowledged.length).toBeGreaterThan(LEADS * 0.9);
      const stored = await db
        .select({ id: contactRequests.id })
        .from(contactRequests)
        .where(inArray(contactRequests.id, acknowledged));
      expect(stored).toHaveLength(acknowledged.length);

      // The killed instance's claimed emails stay leased until their lease ends; the survivor is stopped
      // cleanly, the leases are moved to now (as if their time had passed), and the killed instance is
      // restarted, as its service manager would, to send them.
      await instances[1]!.kill("SIGTERM");
      await db
        .update(emailOutbox)
        .set({ nextAttemptAt: sql`now()` })
        .where(isNull(emailOutbox.sentAt));
      instances[0] = await startServerProcess(serverEnv(ports[0]!));
      await waitUntil(async () => {
        const [row] = await db.select({ value: count() }).from(emailOutbox).where(isNull(emailOutbox.sentAt));
        return row!.value === 0;
      }, 30_000);

      // Every stored lead's email arrived; a message sent twice is one whose send the kill cut short.
      const rows = await db
        .select({ messageId: emailOutbox.messageId, attempts: emailOutbox.attempts })
        .from(emailOutbox);
      const storedCount = await db.$count(contactRequests);
      expect(rows).toHaveLength(storedCount);
      const received = new Map<string, number>();
      for (const mail of smtp.received) received.set(mail.messageId!, (received.get(mail.messageId!) ?? 0) + 1);
      for (const row of rows) expect(received.get(row.messageId), row.messageId).toBeGreaterThanOrEqual(1);
      const duplicates = rows.filter((row) => received.get(row.messageId)! > 1);
      for (const row of duplicates) expect(row.attempts, row.messageId).toBeGreaterThan(1);
      console.info(
        `scale-out: ${LEADS} sent, answers ${JSON.stringify(Object.fromEntries(statuses))}, ` +
          `${acknowledged.length} acknowledged, ${storedCount} stored, ${smtp.received.length} emails received, ` +
          `${duplicates.length} sent twice (cut by the kill)`,
      );

      // The logs hold no lead's email address or phone number.
      for (const instance of instances) {
        expect(instance.output()).not.toContain(validContact.email);
        expect(instance.output()).not.toContain(validContact.phone);
      }
      const accessLog = await readFile(join(dir, "logs", "access.log"), "utf8");
      expect(accessLog).not.toMatch(/127\.0\.1\./);
    } finally {
      await (db.$client as pg.Pool).end();
    }
  }, 120_000);
});
