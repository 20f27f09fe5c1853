import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

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
 * The built server as `npm start` runs it (`node build/node/server.js`), in a process of its own, so
 * that a test can SIGKILL it. `env` is its whole operator configuration; PORT must be fixed.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["build/node/server.js"], {
    cwd: ROOT,
    // DIGEST off: on a Monday the digest would be one more email than a test expects.
    env: { PATH: process.env.PATH, NODE_ENV: "production", HOST: "127.0.0.1", DIGEST: "off", ...env },
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
