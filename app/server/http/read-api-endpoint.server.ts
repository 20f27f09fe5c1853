import type { Request, Response } from "express";
import { log } from "../log.server.ts";
import { API_RESOURCE_NAMES, openApiDocument, type ApiOutcome, type ReadApi } from "../api/index.server.ts";

/** The read API at /api/v1: its answers as HTTP, JSON (or a statement's CSV) with no caching, and its OpenAPI document. */

const UNAUTHORIZED = { error: "Send a valid API key: Authorization: Bearer plk_…" };

function answer(res: Response, outcome: ApiOutcome) {
  switch (outcome.kind) {
    case "ok":
      return void res.json(outcome.body);
    case "file":
      return void res
        .type("text/csv; charset=utf-8")
        .set("Content-Disposition", `attachment; filename="${outcome.filename}"`)
        .send(outcome.csv);
    case "unauthorized":
      return void res.status(401).set("WWW-Authenticate", 'Bearer realm="api"').json(UNAUTHORIZED);
    case "forbidden":
      return void res.status(403).json({ error: `This key may not read this: it needs the ${outcome.scope} scope.` });
    case "limited":
      return void res
        .status(429)
        .set("Retry-After", String(outcome.retryAfterSeconds))
        .json({ error: "Too many requests for this key. Please wait, then try again." });
    case "invalid":
      return void res.status(400).json({ error: outcome.error });
    case "not-found":
      return void res.status(404).json({ error: "There is no such statement." });
  }
}

const answering = (read: (req: Request) => Promise<ApiOutcome>) => async (req: Request, res: Response) => {
  res.set("Cache-Control", "no-store");
  try {
    answer(res, await read(req));
  } catch (error) {
    log.error({ err: error }, "read API failed");
    res.status(503).json({ error: "The API is unavailable; try again shortly." });
  }
};

export function readApiEndpoints(api: ReadApi) {
  return {
    /** Each list's path and handler. */
    lists: API_RESOURCE_NAMES.map(
      (resource) =>
        [
          `/api/v1/${resource}`,
          answering((req) =>
            api.read(resource, req.get("authorization"), new URL(req.originalUrl, "http://api.invalid").searchParams),
          ),
        ] as const,
    ),
    statementCsv: answering((req) => api.statementCsv(req.get("authorization"), String(req.params.id))),
    openApi(_req: Request, res: Response) {
      res.set("Cache-Control", "public, max-age=300").json(openApiDocument);
    },
  };
}
