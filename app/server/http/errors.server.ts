import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { requestIdOf } from "./request-log.server.ts";

/**
 * The last handler: an error a client caused (a malformed request: 4xx, or a connection closed while it
 * was read) is logged in one line and, if the client is still there, answered with its status; any other is a fault of ours, logged with its stack and answered 500. The answer
 * never carries the error's details.
 */
export function handleError(log: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: unknown }).status;
    const requestId = requestIdOf(res);
    // The client went away (or was cut off by a timeout) while its request was being read.
    if (req.socket.destroyed) {
      log.info({ requestId }, "client disconnected before its request was read");
      return;
    }
    if (typeof status === "number" && status >= 400 && status < 500) {
      log.warn({ requestId, status }, "malformed request");
      res.status(status).type("text/plain").send("Bad Request");
      return;
    }
    log.error({ requestId, err: error }, "unhandled error");
    res.status(500).type("text/plain").send("Internal Server Error");
  };
}
