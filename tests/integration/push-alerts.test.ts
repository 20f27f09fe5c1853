import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
  type ECDH,
} from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import webpush from "web-push";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { openDatabase, type OpenDatabase } from "~/server/db/index.server.ts";
import {
  createPushAlerts,
  parsePushSubscription,
  savePushSubscription,
  webPushSender,
} from "~/server/alerts/index.server.ts";
import { createMailer } from "~/server/outbox/mail.server.ts";
import { startOutboxWorker, type OutboxWorker } from "~/server/outbox/index.server.ts";
import { pushSubscriptions } from "../../app/server/alerts/schema.server.ts";
import { operators } from "../../app/server/console/schema.server.ts";
import { outboxMessages } from "../../app/server/outbox/schema.server.ts";
import { waitUntil } from "../../tooling/local-services.ts";
import { databasesToOpen } from "../../tooling/test-databases.ts";

/**
 * Web Push through the outbox to a stand-in push service that does what a browser's push service and the
 * browser do together: it checks the VAPID JWT (ES256, signed with the server's key, for its own origin) and
 * decrypts the aes128gcm body with the subscription's private key and auth secret (RFC 8291, RFC 8188).
 */

const vapid = { ...webpush.generateVAPIDKeys(), subject: "mailto:leads@plumbline.example" };

/** A browser's side of one subscription: its P-256 key pair and auth secret. */
interface Device {
  id: string;
  ecdh: ECDH;
  auth: Buffer;
}

interface Received {
  device: string;
  notification: { title: string; body: string; url: string };
  ttl: string | undefined;
}

/** RFC 8291 key derivation and RFC 8188 decryption of a single-record aes128gcm body. */
function decrypt(body: Buffer, device: Device): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = device.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.ecdh.getPublicKey(), senderPublicKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, device.auth, keyInfo, 32));
  const key = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString("utf8");
}

/** Checks `Authorization: vapid t=<JWT>, k=<public key>` as a push service does. */
function checkVapid(authorization: string | undefined, origin: string): boolean {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match || match[2] !== vapid.publicKey) return false;
  const [header, payload, signature] = match[1]!.split(".") as [string, string, string];
  const point = Buffer.from(match[2], "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
    aud: string;
    exp: number;
    sub: string;
  };
  return signed && claims.aud === origin && claims.exp > Date.now() / 1000 && claims.sub === vapid.subject;
}

function startPushService(devices: Map<string, Device>) {
  const received: Received[] = [];
  const answers = new Map<string, number[]>();
  let origin = "";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const id = req.url!.split("/").pop()!;
      const planned = answers.get(id)?.shift();
      if (planned) return res.writeHead(planned).end();
      const device = devices.get(id);
      if (!device) return res.writeHead(404).end();
      if (!checkVapid(req.headers.authorization, origin)) return res.writeHead(403).end();
      if (req.headers["content-encoding"] !== "aes128gcm") return res.writeHead(415).end();
      received.push({
        device: id,
        notification: JSON.parse(decrypt(Buffer.concat(chunks), device)) as Received["notification"],
        ttl: req.headers.ttl as string | undefined,
      });
      res.writeHead(201).end();
    });
  });
  return new Promise<{
    origin: string;
    received: Received[];
    answerNext(id: string, ...statuses: number[]): void;
    stop(): Promise<void>;
  }>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        origin,
        received,
        answerNext: (id, ...statuses) => answers.set(id, statuses),
        stop: () => new Promise((done) => server.close(() => done())),
      });
    }),
  );
}

let database: OpenDatabase;
let pushService: Awaited<ReturnType<typeof startPushService>>;
const devices = new Map<string, Device>();
const workers: OutboxWorker[] = [];

beforeAll(async () => {
  database = await openDatabase({ pgliteDataDir: "memory://" });
  pushService = await startPushService(devices);
});

afterAll(async () => {
  await pushService.stop();
  await database.close();
});

beforeEach(async () => {
  await database.db.delete(outboxMessages);
  await database.db.delete(pushSubscriptions);
  devices.clear();
  pushService.received.length = 0;
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

/** An operator's account (the console keeps them; removing one removes their devices). */
async function operator(email: string) {
  const [found] = await database.db.select().from(operators).where(eq(operators.email, email));
  if (found) return found.id;
  const id = randomUUID();
  await database.db.insert(operators).values({ id, email, passwordHash: "not used here" });
  return id;
}

/** A browser subscribing: a fresh key pair and auth secret, and its endpoint at the push service. */
async function subscribe(operatorEmail: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const device: Device = { id: randomUUID(), ecdh, auth: randomBytes(16) };
  devices.set(device.id, device);
  await savePushSubscription(
    database.db,
    await operator(operatorEmail),
    {
      endpoint: `${pushService.origin}/push/${device.id}`,
      keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: device.auth.toString("base64url") },
      deviceLabel: "Chrome on Android",
    },
    { allowPrivate: true },
  );
  return device.id;
}

/** The outbox's worker sending pushes with the server's VAPID keys, to push services on this machine unless told not to. */
function startWorker({ keys = vapid, allowPrivate = true } = {}) {
  const mailer = createMailer({ from: "Plumbline <no-reply@plumbline.example>", outboxDir: "" });
  const worker = startOutboxWorker(database.run, mailer, {
    pollMs: 50,
    retryBaseMs: 20,
    retryMaxMs: 50,
    channels: { push: webPushSender(database.db, keys, { allowPrivate }) },
  });
  workers.push(worker);
  return worker;
}

const alerts = () =>
  createPushAlerts({
    run: database.run,
    messageIdFrom: "no-reply@plumbline.example",
    companyName: "Plumbline",
    onQueued: () => workers.forEach((worker) => worker.nudge()),
  });

const allSettled = async () => {
  const rows = await database.db.select().from(outboxMessages);
  return rows.length > 0 && rows.every((row) => row.sentAt !== null || row.failedAt !== null);
};

/** The push alerts' tests on each database: the devices are read by a hand-written statement of the module's own. */
describe.each(databasesToOpen())("push alerts on $name", ({ open }) => {
  let fileDatabase: OpenDatabase;
  beforeAll(async () => {
    fileDatabase = database;
    database = await open();
  });
  afterAll(async () => {
    await database.close();
    database = fileDatabase;
  });

  test("a new lead reaches every subscribed device of every operator, encrypted for each, saying the service (without links) and not the visitor", async () => {
    const first = await subscribe("ana@operator.example");
    const second = await subscribe("ben@operator.example");
    startWorker();
    const leadId = randomUUID();
    await alerts().newLead({ id: leadId, service: "Burst pipe\nunder the sink, see https://evil.example/x" });
    await waitUntil(allSettled);
    expect(pushService.received.map((push) => push.device).sort()).toEqual([first, second].sort());
    for (const push of pushService.received) {
      expect(push.notification).toEqual({
        title: "New lead",
        body: "Service asked for: Burst pipe under the sink, see [link removed]",
        url: `/admin/leads/${leadId}`,
      });
      expect(Number(push.ttl)).toBeGreaterThan(0);
    }
  });

  test("a 410 from the push service removes the subscription; a 404 too", async () => {
    const gone = await subscribe("ana@operator.example");
    const unknown = await subscribe("ana@operator.example");
    const kept = await subscribe("ana@operator.example");
    pushService.answerNext(gone, 410);
    pushService.answerNext(unknown, 404);
    startWorker();
    await alerts().optOut();
    await waitUntil(allSettled);
    const left = await database.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions);
    expect(left.map((row) => row.endpoint)).toEqual([`${pushService.origin}/push/${kept}`]);
    expect(pushService.received.map((push) => push.device)).toEqual([kept]);
    expect(pushService.received[0]!.notification.url).toBe("/admin/opt-outs");
  });

  test("a push service that is down is retried until it takes the push", async () => {
    const device = await subscribe("ana@operator.example");
    pushService.answerNext(device, 503, 502);
    startWorker();
    await alerts().missedCall({ service: "Water heater" });
    await waitUntil(allSettled);
    const [row] = await database.db.select().from(outboxMessages).where(eq(outboxMessages.channel, "push"));
    expect(row).toMatchObject({ attempts: 3, failedAt: null });
    expect(row!.sentAt).not.toBeNull();
    expect(pushService.received).toHaveLength(1);
    expect(pushService.received[0]!.notification).toMatchObject({
      title: "Missed call",
      body: "Service asked for: Water heater",
    });
  });

  test("removing an operator's account removes their devices", async () => {
    await subscribe("gone@operator.example");
    const kept = await subscribe("ana@operator.example");
    await database.db.delete(operators).where(eq(operators.email, "gone@operator.example"));
    const left = await database.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions);
    expect(left.map((row) => row.endpoint)).toEqual([`${pushService.origin}/push/${kept}`]);
  });

  test("a device whose key is no point on the curve is refused when added; one stored before is removed at its first push, not retried", async () => {
    const notAKey = Buffer.alloc(65, 4).toString("base64url");
    const browser = (p256dh: string) => ({
      endpoint: `${pushService.origin}/push/${randomUUID()}`,
      keys: { p256dh, auth: randomBytes(16).toString("base64url") },
      deviceLabel: "Chrome on Android",
    });
    expect(parsePushSubscription(browser(notAKey))).toBeNull();
    expect(
      parsePushSubscription(browser(createECDH("prime256v1").generateKeys().toString("base64url"))),
    ).not.toBeNull();

    await savePushSubscription(database.db, await operator("ana@operator.example"), browser(notAKey), {
      allowPrivate: true,
    });
    startWorker();
    await alerts().optOut();
    await waitUntil(allSettled);
    const [row] = await database.db.select().from(outboxMessages).where(eq(outboxMessages.channel, "push"));
    expect(row).toMatchObject({ attempts: 1, failedAt: null });
    expect(await database.db.$count(pushSubscriptions)).toBe(0);
    expect(pushService.received).toHaveLength(0);
  });

  test("a push that cannot be signed (the server's own VAPID key broken) keeps the device and is retried", async () => {
    await subscribe("ana@operator.example");
    startWorker({ keys: { ...vapid, privateKey: "not-a-key" } });
    await alerts().optOut();
    await waitUntil(async () => {
      const [row] = await database.db.select().from(outboxMessages).where(eq(outboxMessages.channel, "push"));
      return (row?.attempts ?? 0) >= 2;
    });
    const [row] = await database.db.select().from(outboxMessages).where(eq(outboxMessages.channel, "push"));
    expect(row).toMatchObject({ sentAt: null, failedAt: null });
    expect(await database.db.$count(pushSubscriptions)).toBe(1);
  });

  test("a device removed after the push was queued gets nothing", async () => {
    await subscribe("ana@operator.example");
    await alerts().newLead({ id: randomUUID(), service: "Leak" });
    await database.db.delete(pushSubscriptions);
    startWorker();
    await waitUntil(allSettled);
    expect(pushService.received).toHaveLength(0);
  });
});

describe("where a push endpoint may be", () => {
  const device = (endpoint: string) => ({
    endpoint,
    keys: {
      p256dh: createECDH("prime256v1").generateKeys().toString("base64url"),
      auth: randomBytes(16).toString("base64url"),
    },
    deviceLabel: "Chrome on Android",
  });

  test("a device on this machine, a private or link-local address, or plain http is refused and nothing is stored", async () => {
    const id = await operator("ana@operator.example");
    for (const endpoint of [
      "https://127.0.0.1:8443/push/x",
      "https://169.254.169.254/latest/meta-data",
      "https://localhost/push/x",
      "https://10.0.0.5/push/x",
      "https://[::1]/push/x",
      "http://push.example.com/push/x",
    ]) {
      const saved = await savePushSubscription(database.db, id, device(endpoint), { allowPrivate: false });
      expect({ endpoint, saved: saved.saved }).toEqual({ endpoint, saved: false });
    }
    expect(await database.db.select().from(pushSubscriptions)).toEqual([]);
  });

  test("a name that resolves to this machine at send time is never connected to, even if it was accepted before", async () => {
    // Stored as if its name had pointed to a public address when the device was added (DNS rebinding).
    const rebound = await subscribe("ana@operator.example");
    const port = new URL(pushService.origin).port;
    await database.db.update(pushSubscriptions).set({ endpoint: `https://localhost:${port}/push/${rebound}` });
    startWorker({ allowPrivate: false });
    await alerts().newLead({ id: randomUUID(), service: "Leak" });
    await waitUntil(allSettled);
    const [row] = await database.db.select().from(outboxMessages);
    expect(row!.failedAt).not.toBeNull();
    expect(row!.lastError).toContain("not on a public address");
    expect(pushService.received).toHaveLength(0);
  });
});
