import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A receiving end for webhooks, as an operator's system would be: it reads each POST and verifies its signature with
 * Standard Webhooks' reference implementation (`Webhook.verify`) before counting it, and answers with the status
 * the test chooses, at once, after a delay, or (a slow receiver) at once but its body a byte at a time.
 */

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  body: string;
  /** When it arrived (Date.now()). */
  receivedAt: number;
  /** Its headers as they came, for verifying with another secret too. */
  headers: Record<string, string>;
  /** The payload, parsed by `Webhook.verify` (it throws for a bad signature or a stale timestamp). */
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface WebhookReceiver {
  url: string;
  /** Every delivery that arrived with a valid signature, in order. */
  received: ReceivedWebhook[];
  /** Deliveries whose signature did not verify (never expected). */
  unverified: number;
  /** The secret deliveries are verified with; set once the endpoint is added. */
  secret: string | null;
  /** The status answered to each delivery (200 unless changed), and the body ("ok" unless changed). */
  status: number;
  answer: string;
  /** Answers whose body the sender stopped reading before it was whole (a trickled answer cut off). */
  cutOff: number;
  stop(): Promise<void>;
}

export interface ReceiverOptions {
  /** Answers this long after the request arrived. */
  delayMs?: number;
  /** Answers the status line and headers at once, then the body a byte every `everyMs` for `forMs`. */
  trickle?: { everyMs: number; forMs: number };
}

export async function startWebhookReceiver(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, "url" | "stop"> = {
    received: [],
    unverified: 0,
    secret: null,
    status: 200,
    answer: "ok",
    cutOff: 0,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = flatHeaders(request.headers);
      try {
        const payload = new Webhook(receiver.secret ?? "").verify(body, headers) as ReceivedWebhook["payload"];
        receiver.received.push({
          id: headers["webhook-id"]!,
          timestamp: headers["webhook-timestamp"]!,
          body,
          receivedAt: Date.now(),
          headers,
          payload,
        });
      } catch {
        receiver.unverified += 1;
      }
      if (options.trickle) return trickle(response, receiver.status, options.trickle, () => (receiver.cutOff += 1));
      setTimeout(() => {
        response.writeHead(receiver.status, { "content-type": "text/plain" }).end(receiver.answer);
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/plumbline`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The status and headers at once, then a byte every `everyMs` until `forMs` have passed: no idle timeout fires. */
function trickle(
  response: ServerResponse,
  status: number,
  { everyMs, forMs }: { everyMs: number; forMs: number },
  onCutOff: () => void,
) {
  response.writeHead(status, { "content-type": "text/plain" });
  response.flushHeaders();
  const endAt = Date.now() + forMs;
  const timer = setInterval(() => {
    if (Date.now() + everyMs < endAt) response.write(".");
    else response.end(".");
  }, everyMs);
  response.on("close", () => {
    clearInterval(timer);
    if (!response.writableFinished) onCutOff();
  });
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
  );
}
