import type { Database, FeedPage, FeedPlace, FeedRequest } from "../db/index.server.ts";
import { callsPage } from "../calls/index.server.ts";
import { leadsPage } from "../leads/index.server.ts";
import { ledgerEntriesPage, statementsPage } from "../ledger/index.server.ts";
import { partnersPage, referralsPage } from "../partners/index.server.ts";
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
  json(row: Row, site: SiteLinks): Record<string, unknown>;
}

/** What rows link to: the site's own address. */
export interface SiteLinks {
  siteUrl: string;
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
  async list(db: Database, request: FeedRequest, site: SiteLinks): Promise<ListedPage | null> {
    const read = await page(db, request);
    if (!read) return null;
    const last = read.rows.at(-1);
    return {
      data: read.rows.map((row) => json(row, site)),
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

/** A statement's CSV as it was issued, for a key that may read the ledger. */
const statementCsvPath = (id: string) => `/api/v1/statements/${id}.csv`;

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
      zip: row.zip,
      service: row.service,
      partner_id: row.partnerId,
      billing: row.billing,
      charge_minor: row.chargeMinor,
    }),
  }),
  partners: resource({
    scope: "partners:read",
    noun: "partner",
    page: partnersPage,
    json: (row) => ({
      id: row.id,
      created_at: iso(row.createdAt),
      name: row.name,
      business: row.business,
      phone: row.phone,
      email: row.email,
      services: row.services,
      zip_codes: row.zipCodes,
      active: row.active,
      paused_at: iso(row.pausedAt),
      fee_minor: row.feeMinor,
      takes_calls: row.takesCalls,
    }),
  }),
  referrals: resource({
    scope: "partners:read",
    noun: "referral",
    page: referralsPage,
    json: (row) => ({
      id: row.id,
      lead_id: row.leadId,
      partner_id: row.partnerId,
      offered_at: iso(row.offeredAt),
      offered_by: row.offeredBy,
      expires_at: iso(row.expiresAt),
      answer: row.answer,
      answered_at: iso(row.answeredAt),
    }),
  }),
  "ledger-entries": resource({
    scope: "ledger:read",
    noun: "ledger entry",
    page: ledgerEntriesPage,
    json: (row) => ({
      id: row.id,
      partner_id: row.partnerId,
      kind: row.kind,
      amount_minor: row.amountMinor,
      referral_id: row.referralId,
      lead_id: row.leadId,
      service: row.service,
      zip: row.zip,
      occurred_on: row.occurredOn,
      recorded_at: iso(row.recordedAt),
      recorded_by: row.recordedBy,
      method: row.method,
      reference: row.reference,
      note: row.note,
    }),
  }),
  statements: resource({
    scope: "ledger:read",
    noun: "statement",
    page: statementsPage,
    json: (row, site) => ({
      id: row.id,
      number: row.number,
      partner_id: row.partnerId,
      period: row.period,
      issued_at: iso(row.issuedAt),
      opening_minor: row.openingMinor,
      closing_minor: row.closingMinor,
      amount_due_minor: Math.max(row.closingMinor, 0),
      csv_url: `${site.siteUrl}${statementCsvPath(row.id)}`,
    }),
  }),
};

export type ApiResource = keyof typeof API_RESOURCES;
export const API_RESOURCE_NAMES = Object.keys(API_RESOURCES) as ApiResource[];
