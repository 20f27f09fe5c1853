import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * The last handler: an error a client caused (a malformed request: 4xx) is answered with its status and
 * logged in one line; any other is a fault of ours, logged with its stack and answered 500. The answer
 * never carries the error's details.
 */
export function handleError(log: Logger) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: unknown }).status;
    const requestId = res.locals.requestId as string | undefined;
    if (typeof status === "number" && status >= 400 && status < 500) {
      log.warn({ requestId, status }, "malformed request");
      res.status(status).type("text/plain").send("Bad Request");
      return;
    }
    log.error({ requestId, err: error }, "unhandled error");
    res.status(500).type("text/plain").send("Internal Server Error");
  };
}
