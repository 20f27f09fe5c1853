import { sqlNames, type RunStatement } from "../db/index.server.ts";
import { isOpen, parseHours } from "./partner-hours.server.ts";
import { partnerSettings, partners } from "./schema.server.ts";

/**
 * Who may take a job at a moment, by the partners' availability: active, not paused, within their hours, serving
 * the ZIP code and the service. What only the calls module knows (a partner on a call, the day's calls against the
 * cap, whose turn it is) it applies itself.
 */

interface AvailablePartner {
  id: string;
  name: string;
  business: string;
  phone: string;
  email: string;
  /** 1 is tried first, 3 last. */
  priority: number;
  takesCalls: boolean;
  /** The partner's fee per call, else the default fee per call, in minor units. */
  callFeeMinor: number;
  /** At most this many calls a day; null: no cap. */
  callsPerDay: number | null;
  hours: string;
  services: string[];
}

export interface JobAt {
  zip: string;
  /** The service as the site names it; null: any service. */
  service: string | null;
  /** The moment; null: at any hour (whether anybody serves the job at all). */
  at: Date | null;
  /** OPERATOR_TIME_ZONE: the wall clock the partners' hours are read on. */
  timeZone: string;
}

const p = sqlNames(partners);
const ps = sqlNames(partnerSettings);

/**
 * One prepared statement (each call runs it): the ZIP code is found by the GIN index on the partners' codes, the
 * hours, read on the operator's wall clock, are checked on the few rows it returns.
 */
const AVAILABLE = `SELECT ${p.id} AS id, ${p.name} AS name, ${p.business} AS business, ${p.phone} AS phone,
  ${p.email} AS email, ${p.priority} AS priority, ${p.takesCalls} AS "takesCalls",
  coalesce(${p.callFeeMinor}, (SELECT ${ps.defaultCallFeeMinor} FROM ${ps.table} WHERE ${ps.id} = 1), 0)::int
    AS "callFeeMinor",
  ${p.callsPerDay} AS "callsPerDay", ${p.hours} AS hours, ${p.services} AS services
FROM ${p.table}
WHERE ${p.active} AND ${p.pausedAt} IS NULL AND ${p.zipCodes} @> ARRAY[$1::text]
ORDER BY ${p.priority}, ${p.id}`;

/** Available partners for a job, by priority (then by id, so the order is the same every time). */
export async function availablePartners(run: RunStatement, job: JobAt): Promise<AvailablePartner[]> {
  const rows = await run<AvailablePartner>("partners_available", AVAILABLE, [job.zip]);
  return rows
    .filter(({ services }) => job.service === null || services.includes(job.service))
    .filter(({ hours }) => {
      const parsed = parseHours(hours);
      return job.at === null || (parsed.ok && isOpen(parsed.hours, job.at, job.timeZone));
    });
}

/** A partner the calls module may ring. */
export interface CallablePartner {
  id: string;
  business: string;
  phone: string;
  /** 1 is rung first, 3 last. */
  priority: number;
  /** What a billable call costs the partner, in minor units of CONVERSION_CURRENCY. */
  callFeeMinor: number;
  /** At most this many calls a day; null: no cap. */
  callsPerDay: number | null;
}

/**
 * The partners who may take a call at `at` for a ZIP code and a service: available (above) and "Send calls to
 * this partner" on. Not applied here: a partner on a call, the day's cap, round robin (the calls module's).
 */
export async function callablePartners(run: RunStatement, call: JobAt & { at: Date }): Promise<CallablePartner[]> {
  const available = await availablePartners(run, call);
  return available
    .filter((partner) => partner.takesCalls)
    .map(({ id, business, phone, priority, callFeeMinor, callsPerDay }) => ({
      id,
      business,
      phone,
      priority,
      callFeeMinor,
      callsPerDay,
    }));
}
