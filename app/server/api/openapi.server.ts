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
    description: "Only rows from this time on (ISO 8601).",
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
    description: "The next_cursor of the page before; absent for the first page.",
    schema: text,
  },
];

const errorAnswer = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const listAnswer = (item: string) => ({
  description: "A page of rows, oldest first.",
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["data", "next_cursor"],
        properties: {
          data: { type: "array", items: { $ref: `#/components/schemas/${item}` } },
          next_cursor: { ...nullableText, description: "Pass as cursor for the next page; null on the last." },
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
    description: "Leads and calls for the operator's own tools. Keys are made on the console's Integrations page.",
  },
  paths: {
    "/api/v1/leads": operation("Contact requests, oldest first", "leads:read", "Lead"),
    "/api/v1/calls": operation("Calls to the site's numbers, oldest first", "calls:read", "Call"),
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
          attribution: {
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
                "msclkid",
              ].map((field) => [field, nullableText]),
            ),
          },
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
          attribution: {
            type: "object",
            properties: Object.fromEntries(
              ["landing_path", "utm_source", "utm_medium", "utm_campaign", "gclid", "msclkid"].map((field) => [
                field,
                nullableText,
              ]),
            ),
          },
        },
      },
    },
  },
};
