/**
 * A CSV export as a download: an attachment named after the export and today's date, never cached. A body given in
 * chunks is sent as it is read, each chunk read only when the client has taken the one before (backpressure), so a
 * large export holds one chunk in memory, not the file.
 */
export function csvDownload(
  body: string | AsyncIterable<string | Uint8Array>,
  name: string,
  now = new Date(),
): Response {
  return new Response(typeof body === "string" ? body : streamed(body), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${now.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

function streamed(chunks: AsyncIterable<string | Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    // Nothing read ahead: the next chunk is read when the response has written this one.
    { highWaterMark: 0 },
  );
}
