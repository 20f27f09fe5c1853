/** The read API for operators' own tools: keys made in the console, leads, calls, partners, referrals and the ledger by cursor, its OpenAPI document. */
export { createApiKey, listApiKeys, revokeApiKey, validateNewKey } from "./keys.server.ts";
export { createReadApi, type ApiOutcome, type ReadApi } from "./read-api.server.ts";
export { openApiDocument } from "./openapi.server.ts";
export { API_RESOURCE_NAMES } from "./resources.server.ts";
export { API_SCOPES } from "./schema.server.ts";
