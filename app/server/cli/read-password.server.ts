import { createInterface } from "node:readline";
import { Writable } from "node:stream";

/**
 * The password for `operator add`: the first line of standard input when it is piped (scripts, tests),
 * otherwise typed at a prompt that does not echo it.
 */
export function readPassword(prompt: string): Promise<string> {
  const typed = process.stdin.isTTY;
  if (typed) process.stderr.write(prompt);
  // Nothing the operator types is written back to the terminal.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: process.stdin, output: silent, terminal: typed });
  return new Promise((resolve) => {
    let answered = false;
    lines.once("line", (line) => {
      answered = true;
      lines.close();
      if (typed) process.stderr.write("\n");
      resolve(line);
    });
    lines.once("close", () => {
      if (!answered) resolve("");
    });
  });
}
