import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectPath } from "../app/server/project-path.server.ts";

/** Servers under test or benchmark that have no SMTP_URL write their mail here, never into the project's ./data. */
export const testOutboxDir = join(tmpdir(), "plumbline-test-outbox");

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stdout and stderr so far: its log. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * An npm script's command as a process to spawn: the variables it sets before `node`, and node's arguments.
 * Tests and benchmarks start the server with `npm run serve`'s own process settings (its memory:
 * docs/decisions/150-server-in-256-mb.md), read here so that they cannot drift from `npm start`.
 */
export function npmScriptCommand(name: string): { env: Record<string, string>; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(projectPath("package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = (scripts[name] ?? "").split(/\s+/);
  const node = words.indexOf("node");
  if (node < 0) throw new Error(`npm run ${name} does not start node: ${scripts[name]}`);
  const env = Object.fromEntries(
    words.slice(0, node).map((assignment) => assignment.split("=", 2) as [string, string]),
  );
  return { env, args: words.slice(node + 1) };
}

/**
 * The built server as `npm start` runs it (`npm run serve`), in a process of its own, so that a test can
 * SIGKILL it. `env` is its whole operator configuration; PORT must be fixed.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const serve = npmScriptCommand("serve");
  const child = spawn(process.execPath, serve.args, {
    cwd: projectPath(),
    // DIGEST off: on a Monday the digest would be one more email than a test expects.
    env: {
      PATH: process.env.PATH,
      ...serve.env,
      HOST: "127.0.0.1",
      DIGEST: "off",
      BACKUP_SCHEDULE: "off",
      OUTBOX_DIR: testOutboxDir,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const check = setInterval(() => {
      if (output.includes("Plumbline is serving")) {
        clearInterval(check);
        resolve();
      } else if (child.exitCode !== null || Date.now() - started > 60_000) {
        clearInterval(check);
        reject(new Error(`The server did not start:\n${output}`));
      }
    }, 50);
  });
  return {
    child,
    url: `http://127.0.0.1:${env.PORT}`,
    output: () => output,
    exited,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
