/**
 * The read API's OpenAPI 3.1 document, served at /api/v1/openapi.json: what a CRM, Zapier or Make reads to know
 * the paths, the key, the parameters and every field of the answers.
 */

const text = { type: "string" } as const;
const nullableText = { type: ["string", "null"] } as const;
const time = { type: "string", format: "date-time" } as const;
const nullableTime = { type: ["string", "null"], format: "date-time" } as const;

const pageParameters = [
  {
    name: "since",
    in: "query",
    description:
      "Only rows after this time (ISO 8601 with its zone; exclusive, to the millisecond, as times are written here).",
    schema: time,
  },
  {
    name: "limit",
    in: "query",
    description: "Rows per page, 1 to 100.",
    schema: { type: "integer", minimum: 1, maximum: 100, default: 50 },
  },
  {
    name: "cursor",
    in: "query",
    description: "The next_cursor of the page before: the next page of the same listing. Pass since again with it.",
    schema: text,
  },
  {
    name: "after",
    in: "query",
    description:
      "Everything newer than a row, oldest first: a row's id, or a next_cursor (of either listing); empty for everything from the first row. Rows from the last few seconds come on a later request, so that none is ever skipped.",
    schema: text,
  },
];

/** How the visitor found the site, each null when unknown: as the webhooks carry it. */
const attribution = {
  type: "object",
  properties: Object.fromEntries(
    [
      "landing_path",
      "referrer_host",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_term",
      "utm_content",
      "gclid",
      "gbraid",
      "wbraid",
      "msclkid",
      "fbclid",
    ].map((field) => [field, nullableText]),
  ),
} as const;

const errorAnswer = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const listAnswer = (item: string) => ({
  description: "A page of rows: newest first, or oldest first with after.",
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["data", "has_more", "next_cursor"],
        properties: {
          data: { type: "array", items: { $ref: `#/components/schemas/${item}` } },
          has_more: { type: "boolean", description: "More rows follow this page now." },
          next_cursor: {
            ...nullableText,
            description:
              "Newest first: pass as cursor for older rows; null on the last page. With after: where this page ends, never null once there are rows; pass it as after next time.",
          },
        },
      },
    },
  },
});

const operation = (summary: string, scope: string, item: string) => ({
  get: {
    summary,
    description: `Needs a key with the ${scope} scope.`,
    security: [{ apiKey: [] }],
    parameters: pageParameters,
    responses: {
      "200": listAnswer(item),
      "400": errorAnswer("A parameter is not valid."),
      "401": errorAnswer("No key, or a wrong or revoked one."),
      "403": errorAnswer(`The key lacks the ${scope} scope.`),
      "429": errorAnswer("Too many requests for this key: wait Retry-After seconds."),
    },
  },
});

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Plumbline read API",
    version: "1",
    description:
      "Leads, calls, partners, referrals, the ledger and statements for the operator's own tools. Keys are made on the console's Integrations page. Amounts are in minor units (cents for USD) of the site's currency; positive is owed by the partner.",
  },
  paths: {
    "/api/v1/leads": operation("Contact requests, newest first", "leads:read", "Lead"),
    "/api/v1/calls": operation("Calls to the site's numbers, newest first", "calls:read", "Call"),
    "/api/v1/partners": operation("Partners, by when they were added, newest first", "partners:read", "Partner"),
    "/api/v1/referrals": operation("Referrals offered to partners, newest first", "partners:read", "Referral"),
    "/api/v1/ledger-entries": operation(
      "Entries of partners' balances, by when recorded, newest first",
      "ledger:read",
      "LedgerEntry",
    ),
    "/api/v1/statements": operation("Monthly statements, by when issued, newest first", "ledger:read", "Statement"),
    "/api/v1/statements/{id}.csv": {
      get: {
        summary: "A statement's CSV, the same bytes as issued",
        description: "Needs a key with the ledger:read scope. The statement's csv_url.",
        security: [{ apiKey: [] }],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
        responses: {
          "200": { description: "The statement as CSV.", content: { "text/csv": { schema: text } } },
          "401": errorAnswer("No key, or a wrong or revoked one."),
          "403": errorAnswer("The key lacks the ledger:read scope."),
          "404": errorAnswer("There is no such statement."),
          "429": errorAnswer("Too many requests for this key: wait Retry-After seconds."),
        },
      },
    },
  },
  components: {
    securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key, plk_…" } },
    schemas: {
      Error: { type: "object", required: ["error"], properties: { error: text } },
      Lead: {
        type: "object",
        required: ["id", "received_at", "first_name", "last_name", "email", "phone", "service", "message", "status"],
        properties: {
          id: { type: "string", format: "uuid" },
          received_at: time,
          first_name: text,
          last_name: text,
          email: text,
          phone: text,
          service: text,
          message: text,
          status: { type: "string", enum: ["New", "Contacted", "Booked", "Closed", "Spam"] },
          zip: nullableText,
          channel: { type: "string", enum: ["form", "api"] },
          global_privacy_control: {
            type: "boolean",
            description: "The visitor's browser asked not to sell or share their information.",
          },
          do_not_sell: {
            type: "boolean",
            description: "A do-not-sell request came from the lead's email address: do not sell or share the lead.",
          },
          attribution,
        },
      },
      Partner: {
        type: "object",
        required: ["id", "created_at", "name", "business", "phone", "email", "services", "zip_codes", "active"],
        properties: {
          id: { type: "string", format: "uuid" },
          created_at: time,
          name: text,
          business: text,
          phone: text,
          email: text,
          services: { type: "array", items: text, description: "The services, as the site names them, they take." },
          zip_codes: { type: "array", items: text },
          active: { type: "boolean", description: "False once deactivated: offered no new jobs." },
          paused_at: { ...nullableTime, description: "Paused since then (no calls, no offers); null when not." },
          fee_minor: { type: ["integer", "null"], description: "Fee per referral; null: the default fee." },
          takes_calls: { type: "boolean" },
        },
      },
      Referral: {
        type: "object",
        required: ["id", "lead_id", "partner_id", "offered_at", "expires_at", "answer"],
        properties: {
          id: { type: "string", format: "uuid" },
          lead_id: { type: "string", format: "uuid" },
          partner_id: { type: "string", format: "uuid" },
          offered_at: time,
          offered_by: { ...text, description: "The operator's email." },
          expires_at: time,
          answer: { type: ["string", "null"], enum: ["accepted", "declined", null] },
          answered_at: nullableTime,
        },
      },
      LedgerEntry: {
        type: "object",
        required: ["id", "partner_id", "kind", "amount_minor", "recorded_at"],
        properties: {
          id: { type: "string", format: "uuid" },
          partner_id: { type: "string", format: "uuid" },
          kind: { type: "string", enum: ["charge", "credit", "payment", "adjustment"] },
          amount_minor: { type: "integer", description: "Positive is owed by the partner." },
          referral_id: { type: ["string", "null"], format: "uuid" },
          lead_id: { type: ["string", "null"], format: "uuid" },
          service: nullableText,
          zip: nullableText,
          occurred_on: { ...nullableText, description: "The job's or payment's day, YYYY-MM-DD." },
          recorded_at: time,
          recorded_by: { ...nullableText, description: "The operator's email; null for a charge." },
          method: nullableText,
          reference: nullableText,
          note: nullableText,
        },
      },
      Statement: {
        type: "object",
        required: [
          "id",
          "number",
          "partner_id",
          "period",
          "issued_at",
          "opening_minor",
          "closing_minor",
          "amount_due_minor",
          "csv_url",
        ],
        properties: {
          id: { type: "string", format: "uuid" },
          number: { type: "integer" },
          partner_id: { type: "string", format: "uuid" },
          period: { type: "string", description: "The month it covers, YYYY-MM." },
          issued_at: time,
          opening_minor: { type: "integer" },
          closing_minor: { type: "integer" },
          amount_due_minor: { type: "integer" },
          csv_url: { type: "string", format: "uri", description: "The CSV as issued; fetch it with the same key." },
        },
      },
      Call: {
        type: "object",
        required: ["id", "started_at", "caller", "called", "line", "status"],
        properties: {
          id: { type: "string", format: "uuid" },
          started_at: time,
          ended_at: nullableTime,
          caller: text,
          called: text,
          line: { type: "string", enum: ["website", "pool", "other"] },
          status: text,
          duration_seconds: { type: ["integer", "null"] },
          attribution,
          zip: { type: ["string", "null"], description: "A call routed to partners: its ZIP code." },
          service: { type: ["string", "null"], description: "A call routed to partners: its service." },
          partner_id: { type: ["string", "null"], format: "uuid", description: "The partner who took the call." },
          billing: {
            type: ["string", "null"],
            enum: ["billable", "short", "repeat-caller", "no-fee", null],
            description: "A partner's call: charged, or why not.",
          },
          charge_minor: {
            type: ["integer", "null"],
            description: "What the partner was charged, in minor units of CONVERSION_CURRENCY.",
          },
        },
      },
    },
  },
};
