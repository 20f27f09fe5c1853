import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A receiving end for webhooks, as an operator's system would be: it reads each POST and verifies its signature with
 * Standard Webhooks' reference implementation (`Webhook.verify`) before counting it, and answers with the status
 * the test chooses.
 */

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  body: string;
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
  /** The status answered to each delivery (200 unless changed). */
  status: number;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(options: { delayMs?: number } = {}): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, "url" | "stop"> = { received: [], unverified: 0, secret: null, status: 200 };
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
          payload,
        });
      } catch {
        receiver.unverified += 1;
      }
      setTimeout(() => {
        response.writeHead(receiver.status, { "content-type": "text/plain" }).end("ok");
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

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
  );
}
