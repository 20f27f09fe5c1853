/**
 * A busy year of data written straight into the tables, as a year of the site would have left them, with set-based
 * statements (INSERT … SELECT FROM generate_series) in chunks, so that PGlite's worker and PostgreSQL both fill a
 * million leads in minutes: the leads with their history and their emails (sent), the calls, texts back to missed
 * callers and their replies, the referrals, the daily counts over 20 pages and 200 campaigns, and each campaign's
 * monthly spend; and the leads' daily totals of the dashboard's 90 days and the planner's statistics, which a
 * running site's hourly housekeeping keeps.
 *
 * Only the newest 40 leads are still New and unopened, as on a site whose operator keeps up. Every lead's received time lies within the last 364.9 days, newest first by number (lead 1 is the newest), so the
 * retention purge at the server's start finds nothing and `leads purge 335` finds the oldest month.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import {
  analyzeChangedTables,
  executeRows,
  vacuumChangedTables,
  type OpenDatabase,
} from "../../app/server/db/index.server.ts";
import { parseEnv } from "../../app/config/env.server.ts";
import { sumRecentDays } from "../../app/server/leads/index.server.ts";

export interface BusyYearSize {
  leads: number;
  calls: number;
  referrals: number;
}

/** The year's rows at a fraction of a busy year (1 is 1,000,000 leads, 200,000 calls, 100,000 referrals). */
export function busyYearSize(fraction: number): BusyYearSize {
  return {
    leads: Math.round(1_000_000 * fraction),
    calls: Math.round(200_000 * fraction),
    referrals: Math.round(100_000 * fraction),
  };
}

const CHUNK = 50_000;
const SPAN_SECONDS = 364.9 * 86_400;

const FIRST_NAMES = `ARRAY['Ann','Bob','Carla','Dmitri','Elena','Frank','Grace','Hiro','Ines','Jamal','Kim','Luis','Maria','Noah',
  'Olga','Priya','Quinn','Rosa','Sam','Tariq','Uma','Victor','Wen','Xavier','Yusuf','Zoe','Aaron','Beth','Chen','Dana']`;
const LAST_NAMES = `ARRAY['Lee','Garcia','Smith','Nguyen','Johnson','Brown','Martinez','Kowalski','Okafor','Rossi','Schmidt',
  'Haddad','Tanaka','Silva','Murphy','Cohen','Novak','Patel','Dubois','Larsen','Moreau','Ivanova','Kaur','Reyes','Fischer',
  'Yamamoto','Osei','Berg','Costa','Walsh','Quintero','Abbott','Foster','Hughes','Ibrahim','Jensen','Keller','Lopez',
  'Meyer','Nash','Ortiz','Price','Ramos','Stone','Turner','Vance','Wolfe','Young','Zimmer','Adler']`;
const SERVICES = `ARRAY['Leak repair','Drain cleaning','Water heater','Burst pipe','Toilet repair','Sewer line']`;
const STATUSES = `ARRAY['Closed','Closed','Booked','Booked','Contacted','Contacted','Closed','Spam','Closed','Booked']`;

/** The lead with number n's phone, written the many ways visitors write them. */
const phoneOf = (n: string) => `(CASE ${n} % 3
  WHEN 0 THEN '(' || (200 + ${n} % 800) || ') ' || lpad(((${n}::bigint * 7919) % 1000)::text, 3, '0') || '-' || lpad((${n} % 10000)::text, 4, '0')
  WHEN 1 THEN (200 + ${n} % 800) || '.' || lpad(((${n}::bigint * 7919) % 1000)::text, 3, '0') || '.' || lpad((${n} % 10000)::text, 4, '0')
  ELSE '+1' || (200 + ${n} % 800) || lpad(((${n}::bigint * 7919) % 1000)::text, 3, '0') || lpad((${n} % 10000)::text, 4, '0') END)`;

const leadId = (n: string) => `md5('lead-' || ${n})::uuid`;
const receivedAt = (n: string, total: number) => `now() - make_interval(secs => ${n} * ${SPAN_SECONDS / total})`;

/** The digits of lead n's phone number, as an operator would search for them. */
export function benchPhoneDigits(n: number): string {
  return `${200 + (n % 800)}${String((n * 7919) % 1000).padStart(3, "0")}${String(n % 10000).padStart(4, "0")}`;
}

/** The id of lead n, as the fill made it (md5('lead-' || n)::uuid). */
export function benchLeadId(n: number): string {
  const hex = createHash("md5").update(`lead-${n}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function inChunks(total: number, write: (from: number, to: number) => Promise<unknown>) {
  for (let from = 1; from <= total; from += CHUNK) await write(from, Math.min(total, from + CHUNK - 1));
}

export async function fillBusyYear(database: OpenDatabase, size: BusyYearSize, progress: (line: string) => void) {
  const run = (statement: string) => database.db.execute(sql.raw(statement));
  const timed = async (name: string, fill: () => Promise<unknown>) => {
    const started = performance.now();
    await fill();
    progress(`  filled ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  const { leads } = size;
  // The tables' own indexes (not their keys) are built once after the fill, as a restore does: far faster than
  // keeping a dozen indexes, three of them trigram indexes, up to date row by row.
  const indexes = await executeRows<{ name: string; definition: string }>(
    database.db,
    sql`SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE schemaname = 'public' AND tablename IN ('contact_requests', 'lead_changes', 'email_outbox', 'calls', 'referrals', 'text_messages')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = (quote_ident(schemaname) || '.' || quote_ident(indexname))::regclass)`,
  );
  for (const index of indexes) await run(`DROP INDEX "${index.name}"`);
  // As a restore loads rows: with the leads' triggers off, the daily totals summed from the rows afterwards.
  const triggered = ["contact_requests", "lead_changes"];
  for (const table of triggered) await run(`ALTER TABLE "${table}" DISABLE TRIGGER USER`);

  await timed(`${leads} leads`, () =>
    inChunks(leads, (from, to) =>
      run(`INSERT INTO contact_requests (id, received_at, first_name, last_name, email, phone, service, message,
        consent_text, channel, global_privacy_control, status, landing_path, referrer_host, utm_source, utm_medium,
        utm_campaign, gclid, msclkid, zip, opened_at, job_value_cents)
      SELECT ${leadId("n")}, ${receivedAt("n", leads)}, (${FIRST_NAMES})[1 + n % 30], (${LAST_NAMES})[1 + (n / 30) % 50],
        lower((${FIRST_NAMES})[1 + n % 30]) || '.' || n || '@example.com', ${phoneOf("n")},
        (${SERVICES})[1 + n % 6], 'Water is coming through the ceiling under the bathroom, please call after 5 pm. Lead ' || n,
        'By submitting, you agree to be contacted about your request by phone, text or email.',
        CASE WHEN n % 4 = 0 THEN 'api' ELSE 'form' END, n % 20 = 0,
        CASE WHEN n <= 40 THEN 'New' ELSE (${STATUSES})[1 + n % 10] END,
        '/page-' || (n % 20), CASE WHEN n % 3 = 0 THEN 'www.google.com' END,
        'source-' || (n % 5), CASE WHEN n % 2 = 0 THEN 'cpc' END, 'campaign-' || (n % 200),
        CASE WHEN n % 3 = 0 THEN 'gclid-' || n END, CASE WHEN n % 7 = 0 THEN 'msclkid-' || n END,
        lpad((10000 + n % 89999)::text, 5, '0'), CASE WHEN n > 40 THEN ${receivedAt("n", leads)} + interval '7 minutes' END,
        CASE WHEN n % 10 = 2 THEN 25000 + n % 50000 END
      FROM generate_series(${from}, ${to}) n`),
    ),
  );
  // Each lead's history: the operator's status change, and a note on every third.
  await timed("lead history", () =>
    inChunks(leads, (from, to) =>
      run(`INSERT INTO lead_changes (id, contact_request_id, changed_at, changed_by, status_from, status_to, note)
      SELECT md5('change-' || n || '-' || k)::uuid, ${leadId("n")}, ${receivedAt("n", leads)} + k * interval '1 hour',
        'ops@example.com', CASE WHEN k = 1 THEN 'New' END, CASE WHEN k = 1 THEN (${STATUSES})[1 + n % 10] END,
        CASE WHEN k = 2 THEN 'Called back, customer wants a quote for the whole bathroom.' END
      FROM generate_series(${from}, ${to}) n, generate_series(1, 2) k
      WHERE n > 40 AND (k = 1 OR n % 3 = 0)`),
    ),
  );
  // Each lead's email to the operator, sent.
  await timed("lead emails", () =>
    inChunks(leads, (from, to) =>
      run(`INSERT INTO email_outbox (id, created_at, purpose, attempts, next_attempt_at, sent_at, contact_request_id,
        message_id, to_address, reply_to, subject, text_body, html_body)
      SELECT md5('email-' || n)::uuid, ${receivedAt("n", leads)}, 'contact_notification',
        1, ${receivedAt("n", leads)}, ${receivedAt("n", leads)} + interval '2 seconds', ${leadId("n")},
        '<' || n || '@bench.example>', 'leads@example.com',
        NULL, 'New request: Leak repair from visitor ' || n,
        repeat('Name: Ann Lee. Phone: 555-123-4567. Service: Leak repair. ', 5),
        '<p>' || repeat('Name: Ann Lee. Phone: 555-123-4567. Service: Leak repair. ', 8) || '</p>'
      FROM generate_series(${from}, ${to}) n`),
    ),
  );
  // Calls over the year; every other caller is a lead's phone.
  await timed(`${size.calls} calls`, () =>
    inChunks(size.calls, (from, to) =>
      run(`INSERT INTO calls (id, call_sid, started_at, caller, called, line, status, duration_seconds, ended_at,
        recording_sid, landing_path, utm_source, utm_campaign, gclid)
      SELECT md5('call-' || n)::uuid, 'CA' || md5('call-' || n), ${receivedAt("n", size.calls)},
        CASE WHEN n % 2 = 0 THEN '+1' || ${phoneOf("(n * 5)")} ELSE '+1' || (200 + n % 800) || lpad((n % 10000000)::text, 7, '0') END,
        '+15550100' || lpad((n % 100)::text, 3, '0'), (ARRAY['website','pool','pool','other'])[1 + n % 4],
        (ARRAY['answered','answered','answered','no-answer','busy','voicemail','failed','canceled'])[1 + n % 8],
        60 + n % 600, ${receivedAt("n", size.calls)} + interval '5 minutes',
        CASE WHEN n % 8 = 5 THEN 'RE' || md5('recording-' || n) END,
        '/page-' || (n % 20), 'source-' || (n % 5), 'campaign-' || (n % 200), CASE WHEN n % 4 = 1 THEN 'gclid-call-' || n END
      FROM generate_series(${from}, ${to}) n`),
    ),
  );
  // A text back to the caller of every call missed (no answer, busy or voicemail), and the caller's reply to every
  // fifth, read by the operator.
  await timed("texts", () =>
    run(`INSERT INTO text_messages (id, created_at, customer, ours, direction, body, status, twilio_sid, read_at,
        purpose, attempts, next_attempt_at, sent_at)
      SELECT md5('text-' || c.call_sid || k)::uuid, c.ended_at + k * interval '1 minute',
        '+1' || right(regexp_replace(c.caller, '\\D', '', 'g'), 10), c.called, (ARRAY['out','in'])[k],
        (ARRAY['Sorry we missed your call. Reply here or call us back any time.', 'Yes please, the kitchen sink is leaking.'])[k],
        (ARRAY['delivered','received'])[k], 'SM' || md5('text-' || c.call_sid || k),
        CASE WHEN k = 2 THEN c.ended_at + interval '30 minutes' END,
        (ARRAY['missed_call_text_back','customer_text'])[k], 2 - k, c.ended_at + k * interval '1 minute',
        CASE WHEN k = 1 THEN c.ended_at + interval '1 minute' END
      FROM calls c, generate_series(1, 2) k
      WHERE c.status IN ('no-answer', 'busy', 'voicemail') AND (k = 1 OR abs(hashtext(c.call_sid)) % 5 = 0)`),
  );
  // Twenty partners, and a referral for every tenth lead's (or, past a tenth, the first leads'). Each sixth is a
  // second partner's offer of the lead before it, which the first accepted: never answered, its link's expiry
  // recorded.
  await timed(`${size.referrals} referrals`, async () => {
    await run(`INSERT INTO partners (id, name, business, phone, email, services, zip_codes)
      SELECT md5('partner-' || p)::uuid, 'Partner ' || p, 'Pipes ' || p, '555-010-' || lpad(p::text, 4, '0'),
        'partner' || p || '@example.com', ARRAY['Leak repair','Drain cleaning'], ARRAY['10001','10002']
      FROM generate_series(1, 20) p`);
    await inChunks(size.referrals, (from, to) =>
      run(`INSERT INTO referrals (id, contact_request_id, partner_id, offered_by, offered_at, expires_at, answer,
        answered_at, expired_at)
      SELECT md5('referral-' || r)::uuid, ${leadId("lead.n")}, md5('partner-' || (1 + r % 20))::uuid,
        'ops@example.com', ${receivedAt("lead.n", leads)} + interval '1 hour',
        ${receivedAt("lead.n", leads)} + interval '25 hours',
        CASE WHEN r % 6 = 5 THEN NULL WHEN r % 3 = 0 THEN 'declined' ELSE 'accepted' END,
        CASE WHEN r % 6 <> 5 THEN ${receivedAt("lead.n", leads)} + interval '2 hours' END,
        CASE WHEN r % 6 = 5 THEN ${receivedAt("lead.n", leads)} + interval '25 hours' END
      FROM generate_series(${from}, ${to}) r,
        LATERAL (SELECT ((r - CASE WHEN r % 6 = 5 THEN 1 ELSE 0 END) * 10) % ${leads} + 1 AS n) lead`),
    );
  });
  // A year of daily counts: each page's views over 20 of the 200 campaigns a day, its call taps over 5 of them in
  // three placements, and form starts.
  await timed("a year of daily counts", () =>
    run(`INSERT INTO site_event_counts (day, path, kind, placement, source, medium, campaign, count)
      SELECT (current_date - d)::date, '/page-' || p, k.kind, k.placement, 'source-' || (c % 5), 'cpc',
        'campaign-' || ((d * 7 + p * 13 + c) % 200), CASE WHEN k.kind = 'view' THEN 25 ELSE 2 END
      FROM generate_series(0, 364) d, generate_series(1, 20) p, generate_series(1, 20) c,
        (VALUES ('view', ''), ('call', 'hero'), ('call', 'header'), ('call', 'sticky_bottom_button'), ('form', '')) AS k(kind, placement)
      WHERE k.kind = 'view' OR c <= 5`),
  );
  await timed("each campaign's spend", () =>
    run(`INSERT INTO ad_spend (month, source, campaign, amount_cents)
      SELECT (date_trunc('month', current_date) - make_interval(months => m))::date, 'source-' || (c % 5), 'campaign-' || c,
        20000 + c * 100
      FROM generate_series(0, 12) m, generate_series(0, 199) c`),
  );
  await timed(`${indexes.length} indexes`, async () => {
    for (const index of indexes) await run(index.definition);
  });
  for (const table of triggered) await run(`ALTER TABLE "${table}" ENABLE TRIGGER USER`);
  // The tables vacuumed and their planner statistics made as a running site has them: by the server's housekeeping
  // on the embedded database (the same functions) and by autovacuum on PostgreSQL.
  await timed("vacuum", () => vacuumChangedTables(database.run));
  await timed("statistics (ANALYZE)", () => analyzeChangedTables(database.run));
  // A site that ran the year has its leads' daily totals of the dashboard's days stored by its hourly housekeeping.
  await timed("the leads' daily totals of the last 90 days", () =>
    sumRecentDays(database.db, parseEnv(process.env).OPERATOR_TIME_ZONE),
  );
}
