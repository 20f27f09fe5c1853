import type { Env } from "~/config/env.server.ts";
import type { RunStatement } from "../db/index.server.ts";
import { createMailer, type Mailer } from "./mail.server.ts";
import { startOutboxWorker, type OutboxOptions } from "./outbox.server.ts";

/** Email goes through SMTP_URL, or into .eml files in OUTBOX_DIR when it is not set. */
export function mailerFromSettings(env: Env): Mailer {
  return createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR });
}

/** The outbox's delivery loop, with the channels and queues the configured features deliver through; stop() ends it. */
export function startOutbox(
  env: Env,
  run: RunStatement,
  mailer: Mailer,
  delivery: Pick<OutboxOptions, "channels" | "queues" | "beforeClaim">,
) {
  return startOutboxWorker(run, mailer, {
    pollMs: env.OUTBOX_POLL_MS,
    retryBaseMs: env.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: env.OUTBOX_RETRY_MAX_MS,
    ...delivery,
  });
}
