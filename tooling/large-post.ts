import { request as httpRequest } from "node:http";

/**
 * A POST that keeps sending 64 KB chunks (each once the last has gone) until the server answers, up to `bytes`;
 * with `declared`, its Content-Length says `bytes`, otherwise it is chunked. What the server answered, how much had
 * been sent by then, and how long the answer took.
 */
export function postUntilAnswered(
  url: string,
  options: { bytes: number; declared: boolean; contentType?: string; headers?: Record<string, string> },
): Promise<{ status: number; sentWhenAnswered: number; answeredInMs: number }> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  const started = performance.now();
  return new Promise((resolvePost, reject) => {
    let sent = 0;
    let answered = false;
    const post = httpRequest(url, {
      method: "POST",
      headers: {
        "Content-Type": options.contentType ?? "application/x-www-form-urlencoded",
        Origin: new URL(url).origin,
        ...(options.declared ? { "Content-Length": String(options.bytes) } : { "Transfer-Encoding": "chunked" }),
        ...options.headers,
      },
    });
    post.on("response", (response) => {
      answered = true;
      resolvePost({
        status: response.statusCode!,
        sentWhenAnswered: sent,
        answeredInMs: performance.now() - started,
      });
      response.resume();
      post.destroy();
    });
    post.on("error", (error) => (answered ? undefined : reject(error)));
    const sendMore = () => {
      if (answered) return;
      if (sent >= options.bytes) return void post.end();
      sent += chunk.length;
      post.write(chunk, () => setImmediate(sendMore));
    };
    sendMore();
  });
}
