import { chmod, mkdtemp, rename, rm } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";

/**
 * How `npm run leads` and `npm run operator` reach the embedded database while the server holds it: the
 * server listens on a Unix socket next to the database folder (readable by its owner only) and runs the
 * command on its own connection (docs/decisions/063-local-commands-through-the-server.md).
 *
 * The protocol is newline-delimited JSON: the command sends one request line; the server answers with
 * output lines `{"out": text}` / `{"err": text}` and a last line `{"exit": code}`.
 */
export interface CommandRequest {
  tool: string;
  args: string[];
  /** Read by the command line on the operator's terminal, never from the server's. */
  password?: string;
}

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

export type CommandRunner = (request: CommandRequest, output: CommandOutput) => Promise<number>;

const MAX_REQUEST_BYTES = 64 * 1024;

export function commandSocketPath(pgliteDataDir: string): string {
  return `${pgliteDataDir.replace(/\/+$/, "")}.sock`;
}

function parseRequest(line: string): CommandRequest | undefined {
  try {
    const value = JSON.parse(line) as Partial<CommandRequest>;
    const isStrings = Array.isArray(value.args) && value.args.every((arg) => typeof arg === "string");
    if (typeof value.tool !== "string" || !isStrings) return undefined;
    if (value.password !== undefined && typeof value.password !== "string") return undefined;
    return { tool: value.tool, args: value.args as string[], password: value.password };
  } catch {
    return undefined;
  }
}

/** Serves commands on `socketPath` until closed. A socket file left by a crashed server is replaced. */
export async function listenForCommands(socketPath: string, run: CommandRunner): Promise<{ close(): Promise<void> }> {
  const serve = (socket: Socket) => {
    const send = (message: object) => socket.writable && socket.write(`${JSON.stringify(message)}\n`);
    let received = 0;
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_REQUEST_BYTES) socket.destroy();
    });
    socket.on("error", () => undefined);
    const lines = createInterface({ input: socket });
    lines.once("line", async (line) => {
      lines.close();
      const request = parseRequest(line);
      if (!request) {
        send({ err: "Malformed command request.\n" });
        send({ exit: 2 });
        socket.end();
        return;
      }
      let exit = 1;
      try {
        exit = await run(request, { out: (text) => send({ out: text }), err: (text) => send({ err: text }) });
      } catch (error) {
        send({ err: `The command failed: ${(error as Error).message}\n` });
      }
      send({ exit });
      socket.end();
    });
  };
  // Only this server can hold the database, so an existing socket file is a leftover from a crash.
  await rm(socketPath, { force: true });
  const server: Server = createServer(serve);
  await listenPrivately(server, socketPath);
  return {
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

/**
 * Whoever can connect to the socket can run `operator add`, so no one else may ever reach it: it is bound
 * inside a new folder only its owner can enter (mkdtemp makes it 0700), made 0600 there, and only then
 * moved into place. Binding at its final path and changing its mode afterwards would leave a moment in which
 * another user (under a permissive umask) could connect.
 */
async function listenPrivately(server: Server, socketPath: string): Promise<void> {
  const privateFolder = await mkdtemp(join(dirname(socketPath), ".sock-"));
  const boundPath = join(privateFolder, "s");
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(boundPath, () => resolve());
    });
    await chmod(boundPath, 0o600);
    await rename(boundPath, socketPath);
  } catch (error) {
    server.close();
    throw error;
  } finally {
    await rm(privateFolder, { recursive: true, force: true });
  }
}

/**
 * Whether `sendCommand` failed because no server listens on the socket: there is none, one is still starting, or one
 * crashed and left its socket file.
 */
export function noServerListens(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ECONNREFUSED";
}

/** Sends one command to the server and relays its output; resolves to the command's exit code. */
export function sendCommand(socketPath: string, request: CommandRequest, output: CommandOutput): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let exit: number | undefined;
    socket.once("error", reject);
    socket.on("connect", () => {
      socket.write(`${JSON.stringify(request)}\n`);
      // Attached once connected: a readline interface re-emits a failed connection as its own error.
      createInterface({ input: socket }).on("line", (line) => {
        const message = JSON.parse(line) as { out?: string; err?: string; exit?: number };
        if (message.out !== undefined) output.out(message.out);
        if (message.err !== undefined) output.err(message.err);
        if (message.exit !== undefined) exit = message.exit;
      });
      socket.on("close", () =>
        exit === undefined
          ? reject(new Error("The server closed the connection before the command finished."))
          : resolve(exit),
      );
    });
  });
}
