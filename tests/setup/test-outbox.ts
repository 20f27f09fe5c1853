import { rm } from "node:fs/promises";
import { testOutboxDir } from "../../tooling/server-process.ts";

/**
 * The emails the run's servers wrote without SMTP (into the system's temporary folder, never the project's ./data)
 * go when the run ends: thousands a run, they would otherwise pile up there from one run to the next.
 */
export default function removeTestOutboxAfterTheRun() {
  return () => rm(testOutboxDir, { recursive: true, force: true });
}
