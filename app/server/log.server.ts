import { pino, type Logger } from "pino";
import pretty from "pino-pretty";

/**
 * The server's one logger: JSON lines on stdout, human-readable when stdout is a terminal.
 * Nothing personal is ever logged: no lead field, email address, IP address or query string.
 * stdout (not a file descriptor of its own) is the destination so that one write path serves the
 * process and the tests that read its log.
 */
export const log: Logger = pino(
  { level: "info", base: undefined },
  process.stdout.isTTY
    ? pretty({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" })
    : process.stdout,
);

/** The level from the operator's settings (LOG_LEVEL), set once by whatever starts: the server or a command. */
export function setLogLevel(level: string): void {
  log.level = level;
}

const EMAIL_ADDRESS = /[^\s<>()"',;:/]+(?:@|%40)[^\s<>()"',;:/]+/gi;

/** Text from elsewhere (an SMTP server's reply, a URL path) with any email address in it blanked out. */
export function withoutEmailAddresses(text: string): string {
  return text.replace(EMAIL_ADDRESS, "[email]");
}
