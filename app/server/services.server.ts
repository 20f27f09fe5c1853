import type { Env } from "~/config/env.server.ts";

/** The long-lived parts of the server process, opened once at start and closed on shutdown. */
export interface AppServices {
  close(): Promise<void>;
}

export async function startServices(_env: Env): Promise<AppServices> {
  return { async close() {} };
}
