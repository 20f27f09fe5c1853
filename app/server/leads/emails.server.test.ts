import { describe, expect, test } from "vitest";
import { takeAttribution } from "./attribution.server.ts";
import { contactNotification, optOutEmails, type EmailSettings } from "./emails.server.ts";
import { optOutDueAt } from "./opt-outs.server.ts";

const settings: EmailSettings = {
  companyName: "Pat's Plumbing",
  leadsEmailTo: "leads@operator.example",
  privacyEmail: "privacy@operator.example",
  consentText: "By submitting this form you agree to be contacted.",
  timeZone: "America/Chicago",
};
/** 23:30 on Sunday 6 December 2026 in Chicago, already the 7th in UTC. */
const lateSunday = new Date("2026-12-07T05:30:00Z");

describe("the operator's emails show dates and times in OPERATOR_TIME_ZONE", () => {
  test("a lead received at 23:30 operator time shows that day and time, with the zone named", () => {
    const contact = { firstName: "Ann", lastName: "Lee", email: "ann@example.com", phone: "555-123-4567" };
    const email = contactNotification(
      "lead-1",
      { ...contact, service: "Leak", message: "Water on the floor." },
      lateSunday,
      settings,
      false,
      takeAttribution({}, null, false).attribution,
    );
    expect(email.text).toContain("Received: Dec 6, 2026, 11:30 PM CST\n");
    expect(email.html).toContain("Dec 6, 2026, 11:30 PM CST");
  });

  test("an opt-out received at 23:30 operator time is due 30 of the operator's days later, the operator's date", () => {
    const dueAt = optOutDueAt(lateSunday, settings.timeZone);
    const request = { name: "Bob Stone", email: "bob@example.com", message: "Please stop.", type: "opt-out" as const };
    const [confirmation, notice] = optOutEmails("request-1", request, lateSunday, dueAt, settings);
    expect(notice.subject).toBe("Opt-out request from Bob Stone (due Jan 5, 2027)");
    expect(notice.text).toContain("It must be processed by Jan 5, 2027;");
    expect(notice.text).toContain("Received: Dec 6, 2026, 11:30 PM CST\nDue by: Jan 5, 2027\n");
    expect(confirmation.text).toContain(
      "We received your request on Dec 6, 2026 to opt out of the sale or sharing of your personal information. " +
        "We will process it in accordance with applicable laws, at the latest by Jan 5, 2027.",
    );
  });

  test("across the spring clock change the due date stays 30 of the operator's days out, not a day later", () => {
    // 23:30 CST on 28 February 2027; the clocks go forward on 14 March.
    const dueAt = optOutDueAt(new Date("2027-03-01T05:30:00Z"), "America/Chicago");
    expect(dueAt.toISOString()).toBe("2027-03-31T04:30:00.000Z"); // 23:30 CDT on 30 March
  });
});
