import { expect, test } from "vitest";
import { contactRequests } from "../leads/schema.server.ts";
import { sqlNames } from "./sql-names.server.ts";

test("hand-written SQL gets its table and column names from the schema, and unknown ones fail the type-check", () => {
  const names = sqlNames(contactRequests);
  expect(names.table).toBe('"contact_requests"');
  expect(names.receivedAt).toBe('"received_at"');
  // @ts-expect-error: a column the schema does not have is a type error, so a rename cannot go unnoticed.
  expect(names.receivedOn).toBeUndefined();
});
