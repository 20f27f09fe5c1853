import type { Database, FeedPage, FeedPlace, FeedRequest } from "../db/index.server.ts";
import { callsPage } from "../calls/index.server.ts";
import { leadsPage } from "../leads/index.server.ts";
import type { ApiScope } from "./schema.server.ts";

/**
 * What the read API lists: each resource's scope, its owner's page function, and its rows as JSON, named as the
 * webhooks name them (snake_case, times in ISO 8601 UTC). Fields are never renamed or removed.
 */

interface Listed {
  id: string;
  /** The row's time as the database writes it: its place for a cursor. */
  cursorAt: string;
}

interface Resource<Row extends Listed> {
  scope: ApiScope;
  /** A row, as an error names it. */
  noun: string;
  page(db: Database, request: FeedRequest): Promise<FeedPage<Row> | null>;
  json(row: Row): Record<string, unknown>;
}

/** A page of a resource as JSON rows, whether more follow, where it read from, and the place of its last row. */
export interface ListedPage {
  data: Record<string, unknown>[];
  more: boolean;
  from: FeedPlace | null;
  last: FeedPlace | null;
}

const resource = <Row extends Listed>({ page, json, ...named }: Resource<Row>) => ({
  ...named,
  /** Null when the page is to start after an id no row has. */
  async list(db: Database, request: FeedRequest): Promise<ListedPage | null> {
    const read = await page(db, request);
    if (!read) return null;
    const last = read.rows.at(-1);
    return {
      data: read.rows.map(json),
      more: read.more,
      from: read.from,
      last: last ? { at: last.cursorAt, id: last.id } : null,
    };
  },
});

const iso = (value: Date | null) => (value ? value.toISOString() : null);

interface Attributed {
  landingPath: string | null;
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  msclkid: string | null;
  fbclid: string | null;
}

/** How the visitor found the site, as the `lead.created` and `call.completed` webhooks carry it. */
const attribution = (row: Attributed) => ({
  landing_path: row.landingPath,
  referrer_host: row.referrerHost,
  utm_source: row.utmSource,
  utm_medium: row.utmMedium,
  utm_campaign: row.utmCampaign,
  utm_term: row.utmTerm,
  utm_content: row.utmContent,
  gclid: row.gclid,
  gbraid: row.gbraid,
  wbraid: row.wbraid,
  msclkid: row.msclkid,
  fbclid: row.fbclid,
});

export const API_RESOURCES = {
  leads: resource({
    scope: "leads:read",
    noun: "lead",
    page: leadsPage,
    json: (row) => ({
      id: row.id,
      received_at: iso(row.receivedAt),
      first_name: row.firstName,
      last_name: row.lastName,
      email: row.email,
      phone: row.phone,
      service: row.service,
      message: row.message,
      status: row.status,
      zip: row.zip,
      channel: row.channel,
      global_privacy_control: row.globalPrivacyControl,
      do_not_sell: row.doNotSell,
      attribution: attribution(row),
    }),
  }),
  calls: resource({
    scope: "calls:read",
    noun: "call",
    page: callsPage,
    json: (row) => ({
      id: row.id,
      started_at: iso(row.startedAt),
      ended_at: iso(row.endedAt),
      caller: row.caller,
      called: row.called,
      line: row.line,
      status: row.status,
      duration_seconds: row.durationSeconds,
      attribution: attribution(row),
    }),
  }),
};

export type ApiResource = keyof typeof API_RESOURCES;
