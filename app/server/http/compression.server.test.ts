import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import express, { type RequestHandler } from "express";
import { afterEach, expect, test } from "vitest";
import { responseCompression } from "./compression.server.ts";

const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";
const servers: ReturnType<express.Express["listen"]>[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(handler: RequestHandler): Promise<string> {
  const app = express();
  app.use(responseCompression);
  app.get("/", handler);
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Lines like a leads CSV's, the same ones each run: 20,000 of them, about 2 MB. */
function leadsCsv(): string {
  let seed = 7;
  const next = (below: number) => ((seed = (seed * 48_271) % 2_147_483_647), seed % below);
  const names = ["Maria Kowalski", "John Smith", "Ana Lopez", "Wei Chen", "Sam O'Neil"];
  const lines = ["received_at,name,phone,message"];
  for (let at = 0; at < 20_000; at += 1) {
    const received = `2026-0${1 + next(9)}-1${next(10)}T0${next(10)}:${10 + next(50)}:00.000Z`;
    const phone = `+1555${String(next(10_000_000)).padStart(7, "0")}`;
    const message = `Leak under the ${["sink", "bath", "stairs"][next(3)]} since ${next(12)} am, unit ${next(900)}`;
    lines.push(`${received},${names[next(5)]},${phone},${message}`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** How many bytes the server sent for `url` in `encoding`, as they came (fetch would decode them). */
function bytesSent(url: string, encoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { "accept-encoding": encoding } }, (response) => {
      let length = 0;
      response.on("data", (chunk: Buffer) => (length += chunk.length));
      response.on("end", () => resolve(length));
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

function sendDownload(text: string): RequestHandler {
  return (_req, res) => {
    res.set({ "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="leads.csv"' });
    // In chunks of 64 KB, as a download is written.
    for (let at = 0; at < text.length; at += 1 << 16) res.write(text.slice(at, at + (1 << 16)));
    res.end();
  };
}

test("a download is compressed at brotli's fastest quality for a browser, and arrives whole", async () => {
  const text = leadsCsv();
  const url = await serve(sendDownload(text));
  const response = await fetch(url, { headers: { "accept-encoding": BROWSER_ENCODINGS } });
  expect(response.headers.get("content-encoding")).toBe("br");
  expect(await response.text()).toBe(text);

  // The bytes sent are those of quality 1, within 5 % (quality 4, the default, makes a file an eighth smaller).
  const atQualityOne = brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }).length;
  expect((await bytesSent(url, "br")) / atQualityOne).toBeCloseTo(1, 1);
});

test("a download is gzip at its fastest level for a client without brotli", async () => {
  const text = leadsCsv();
  const url = await serve(sendDownload(text));
  const response = await fetch(url, { headers: { "accept-encoding": "gzip" } });
  expect(response.headers.get("content-encoding")).toBe("gzip");
  expect(await response.text()).toBe(text);

  // The bytes sent are those of level 1, within 5 % (level 6, the default, makes a file a fifth smaller).
  expect((await bytesSent(url, "gzip")) / gzipSync(text, { level: 1 }).length).toBeCloseTo(1, 1);
});

test("a page is compressed too, and what it has rendered goes out before the rest", async () => {
  let sendRest: () => void = () => undefined;
  const rest = new Promise<void>((resolve) => (sendRest = resolve));
  const head = `<!doctype html><title>Inbox</title>${"<p>A lead waiting for a call back.</p>".repeat(200)}`;
  const url = await serve(async (_req, res) => {
    res.type("html");
    res.write(head);
    (res as typeof res & { flush(): void }).flush();
    await rest;
    res.end("</html>");
  });
  const response = await fetch(url, { headers: { "accept-encoding": BROWSER_ENCODINGS } });
  expect(response.headers.get("content-encoding")).toBe("br");
  const reader = response.body!.getReader();
  // The page's first part arrives while the rest is still to be written (else the test times out).
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toBe(head);
  sendRest();
  let tail = "";
  for (let part = await reader.read(); !part.done; part = await reader.read())
    tail += new TextDecoder().decode(part.value);
  expect(tail).toBe("</html>");
}, 5_000);
