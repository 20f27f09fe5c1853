import { expect, test } from "vitest";
import { showsShippedContact } from "./shipped-contact.server.ts";

const own = { companyName: "Rapid Rooter", phone: { display: "(212) 555-0147", e164: "+12125550147" } };

test("the company and phone are the operator's own only when the name and both forms of the number are", () => {
  expect(showsShippedContact(own)).toBe(false);
  expect(showsShippedContact({ ...own, companyName: "Plumbline" })).toBe(true);
  expect(showsShippedContact({ ...own, phone: { ...own.phone, display: "1-800-555-0199" } })).toBe(true);
  expect(showsShippedContact({ ...own, phone: { ...own.phone, e164: "+18005550199" } })).toBe(true);
});
