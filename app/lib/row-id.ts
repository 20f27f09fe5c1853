const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Requests and emails are keyed by UUID; anything else in a URL or form names no row (and must not reach SQL). */
export function isRowId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
