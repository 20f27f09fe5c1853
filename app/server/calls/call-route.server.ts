import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { calls } from "./schema.server.ts";

/** A call as its route needs it: still ringing or not, where its visit landed, its ZIP and service once routed. */
export interface CallRoute {
  id: string;
  ringing: boolean;
  landingPath: string | null;
  zip: string | null;
  service: string | null;
  /** When routing began; null before (or for a call forwarded as before). */
  routedAt: Date | null;
}

const c = sqlNames(calls);

/** The columns of a call's route, as `routeOf` reads them. */
export const ROUTE_COLUMNS = `${c.id} AS id, ${c.status} = 'ringing' AS ringing, ${c.landingPath} AS landing_path,
  ${c.zip} AS zip, ${c.service} AS service, ${c.routedAt} AS routed_at`;

const READ = `SELECT ${ROUTE_COLUMNS} FROM ${c.table} WHERE ${c.callSid} = $1`;

export type RouteRow = {
  id: string;
  ringing: boolean;
  landing_path: string | null;
  zip: string | null;
  service: string | null;
  routed_at: Date | string | null;
};

export const routeOf = (row: RouteRow): CallRoute => ({
  id: row.id,
  ringing: row.ringing,
  landingPath: row.landing_path,
  zip: row.zip,
  service: row.service,
  routedAt: row.routed_at === null ? null : new Date(row.routed_at),
});

/** The call Twilio names by its CallSid; null when there is none. */
export async function callRoute(run: RunStatement, callSid: string): Promise<CallRoute | null> {
  const [row] = await run<RouteRow>("calls_route", READ, [callSid]);
  return row ? routeOf(row) : null;
}

/** Routing begins once: a repeated step finds the ZIP, service and start it began with. */
const BEGIN = `WITH begun AS (
  UPDATE ${c.table} SET ${c.zip} = $2, ${c.service} = $3, ${c.routedAt} = now()
  WHERE ${c.id} = $1 AND ${c.routedAt} IS NULL AND ${c.status} = 'ringing'
  RETURNING ${c.id} AS id, true AS ringing, ${c.landingPath} AS landing_path, ${c.zip} AS zip, ${c.service} AS service,
    ${c.routedAt} AS routed_at, true AS began
)
SELECT * FROM begun
UNION ALL
SELECT ${c.id}, ${c.status} = 'ringing', ${c.landingPath}, ${c.zip}, ${c.service}, ${c.routedAt}, false
FROM ${c.table} WHERE ${c.id} = $1 AND NOT EXISTS (SELECT 1 FROM begun)`;

/** The call's route, and whether routing began with this step (no partner has been dialled for it yet). */
export async function beginRoute(
  run: RunStatement,
  callId: string,
  target: { zip: string; service: string | null },
): Promise<{ route: CallRoute; began: boolean }> {
  const [row] = await run<RouteRow & { began: boolean }>("calls_route_begin", BEGIN, [
    callId,
    target.zip,
    target.service,
  ]);
  return { route: routeOf(row!), began: row!.began };
}
