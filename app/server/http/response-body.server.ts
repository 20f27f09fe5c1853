import { once } from "node:events";
import type { Writable } from "node:stream";

/** The response; the compression middleware gives it `flush`, which sends what has been compressed so far. */
type Response = Writable & { flush?(): void };

/**
 * Writes a response's body a chunk at a time: the next chunk is read once the response has taken this one, and
 * nothing keeps a chunk after it is written, so a download of any size holds a chunk or two in memory, not the
 * file. (React Router's own writer races every read against one promise that stays pending until the response
 * ends, and each race keeps its chunk reachable until then: a 330 MB leads CSV grew the server by as much.) What
 * has been compressed goes out after each chunk, so HTML streamed as it renders reaches the browser as it comes. A
 * response closed early (the client went away) stops the reading and cancels the body.
 */
export async function writeBody(body: ReadableStream<Uint8Array>, res: Response): Promise<void> {
  const reader = body.getReader();
  const closed = new AbortController();
  const onClose = () => closed.abort();
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (res.destroyed || res.writableEnded) return void (await reader.cancel());
      if (done) return void res.end();
      // As a Buffer over the same bytes: the compression middleware copies any chunk that is not a Buffer.
      const more = res.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      res.flush?.();
      if (!more) await once(res, "drain", { signal: closed.signal });
    }
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    res.off("close", onClose);
    reader.releaseLock();
  }
}
