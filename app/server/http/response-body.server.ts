import type { Writable } from "node:stream";

/** The response; the compression middleware gives it `flush`, which sends what has been compressed so far. */
type Response = Writable & { flush?(): void };

/**
 * Writes a response's body a chunk at a time: the next chunk is read once the response has taken this one, and
 * nothing keeps a chunk after it is written, so a download of any size holds a chunk or two in memory, not the
 * file. (React Router's own writer races every read against one promise that stays pending until the response
 * ends, and each race keeps its chunk reachable until then: a 330 MB leads CSV grew the server by as much.) What
 * has been compressed goes out after each chunk, so HTML streamed as it renders reaches the browser as it comes (a
 * download's compressor sends as it fills: compression.server.ts). A response closed early (the client went away)
 * stops the reading and cancels the body.
 */
export async function writeBody(body: ReadableStream<Uint8Array>, res: Response): Promise<void> {
  const reader = body.getReader();
  // One listener for the response's whole life, not one for each wait: the compression middleware moves a
  // response's drain listeners to its compressor, where removing them from the response does not reach. Listeners
  // added for each wait stayed, and every drain called all of them: a download of a year of leads, waiting tens of
  // thousands of times, slowed as it went.
  let resume: (() => void) | undefined;
  const onDrainOrClose = () => {
    const waiting = resume;
    resume = undefined;
    waiting?.();
  };
  res.on("drain", onDrainOrClose);
  res.once("close", onDrainOrClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (res.destroyed || res.writableEnded) return void (await reader.cancel());
      if (done) return void res.end();
      // As a Buffer over the same bytes: the compression middleware copies any chunk that is not a Buffer.
      const more = res.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      res.flush?.();
      if (!more && !res.destroyed) await new Promise<void>((resolve) => (resume = resolve));
      if (res.destroyed) return void (await reader.cancel());
    }
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    res.off("drain", onDrainOrClose);
    res.off("close", onDrainOrClose);
    reader.releaseLock();
  }
}
