import { Writable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, test } from "vitest";
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
