import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import express from "express";
import { expect, test } from "vitest";
import { responseCompression } from "./compression.server.ts";
import { writeBody } from "./response-body.server.ts";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** A response that takes each chunk a moment later, as a socket does, and keeps none of them. */
function slowResponse() {
  return new Writable({
    highWaterMark: 1,
    write(_chunk, _encoding, callback) {
      setImmediate(callback);
    },
  });
}

test("a long body's chunks are let go once written: a download holds a chunk or two, not the whole file", async () => {
  const chunks: WeakRef<Uint8Array>[] = [];
  let stillHeld = -1;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (chunks.length === 40) {
          await new Promise((resolve) => setImmediate(resolve));
          collectGarbage();
          stillHeld = chunks.slice(0, 30).filter((chunk) => chunk.deref() !== undefined).length;
        }
        if (chunks.length === 50) return controller.close();
        const chunk = new Uint8Array(1 << 20);
        chunks.push(new WeakRef(chunk));
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  const response = slowResponse();
  await writeBody(body, response);
  expect(response.writableEnded).toBe(true);
  expect(stillHeld).toBe(0);
});

test("a response closed early stops the reading and cancels the body", async () => {
  let cancelled = false;
  let read = 0;
  const response = slowResponse();
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        read += 1;
        if (read === 3) response.destroy();
        controller.enqueue(new Uint8Array(1 << 16));
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  await writeBody(body, response).catch(() => undefined);
  expect(cancelled).toBe(true);
  expect(read).toBeLessThanOrEqual(4);
});

test("a compressed download that waits for its client again and again leaves no listener behind", async () => {
  const app = express();
  app.use(responseCompression);
  app.get("/", async (_req, res) => {
    let sent = 0;
    // Random bytes do not compress: each 64 KB chunk fills the compressor, and the response waits for it to drain.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (++sent > 40) return controller.close();
          controller.enqueue(crypto.getRandomValues(new Uint8Array(1 << 16)));
        },
      },
      { highWaterMark: 0 },
    );
    res.type("text/csv").attachment("leads.csv");
    await writeBody(body, res);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const leaks: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === "MaxListenersExceededWarning") leaks.push(warning.message);
  };
  process.on("warning", onWarning);
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect((await response.arrayBuffer()).byteLength).toBe(40 << 16);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", onWarning);
    server.close();
  }
  // Before, each wait left a listener on the response's compressor, and Node warned of a leak at the eleventh.
  expect(leaks).toEqual([]);
});
