import type { Request, Response } from "express";
import { log } from "../log.server.ts";
import { openApiDocument, type ApiResource, type ReadApi } from "../api/index.server.ts";

/** The read API at /api/v1: its answers as HTTP, JSON with no caching, and its OpenAPI document. */

const UNAUTHORIZED = { error: "Send a valid API key: Authorization: Bearer plk_…" };

export function readApiEndpoints(api: ReadApi) {
  const list = (resource: ApiResource) => async (req: Request, res: Response) => {
    res.set("Cache-Control", "no-store");
    try {
      const query = new URL(req.originalUrl, "http://api.invalid").searchParams;
      const outcome = await api.read(resource, req.get("authorization"), query);
      switch (outcome.kind) {
        case "ok":
          return void res.json(outcome.body);
        case "unauthorized":
          return void res.status(401).set("WWW-Authenticate", 'Bearer realm="api"').json(UNAUTHORIZED);
        case "forbidden":
          return void res
            .status(403)
            .json({ error: `This key may not read this: it needs the ${outcome.scope} scope.` });
        case "limited":
          return void res
            .status(429)
            .set("Retry-After", String(outcome.retryAfterSeconds))
            .json({ error: "Too many requests for this key. Please wait, then try again." });
        case "invalid":
          return void res.status(400).json({ error: outcome.error });
      }
    } catch (error) {
      log.error({ err: error }, "read API failed");
      res.status(503).json({ error: "The API is unavailable; try again shortly." });
    }
  };
  return {
    leads: list("leads"),
    calls: list("calls"),
    openApi(_req: Request, res: Response) {
      res.set("Cache-Control", "public, max-age=300").json(openApiDocument);
    },
  };
}
