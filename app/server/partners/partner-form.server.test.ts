import { describe, expect, test } from "vitest";
import { PARTNER_SERVICES } from "~/content/partner-services.ts";
import { validatePartner } from "./partner-form.server.ts";

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
  }
  return data;
}

const valid = {
  name: "Ana Ruiz",
  business: "Ruiz Plumbing",
  phone: "(555) 010-7788",
  email: "ana@ruiz.example",
  services: ["Drain Services", "Water Heater Services"],
  zipCodes: "10001, 10002\n10003 10001",
  hours: "24/7",
  priority: "2",
};

describe("the partner form", () => {
  test("takes ZIP codes separated by spaces, commas or lines, each once", () => {
    expect(validatePartner(form(valid), "USD")).toEqual({
      success: true,
      partner: {
        ...valid,
        zipCodes: ["10001", "10002", "10003"],
        feeMinor: null,
        serviceFees: {},
        takesCalls: false,
        callFeeMinor: null,
        hours: "24/7",
        callsPerDay: null,
        priority: 2,
      },
    });
  });

  test("says what is wrong with each field, in words", () => {
    const result = validatePartner(
      form({ ...valid, name: " ", email: "ana@", services: ["Rocket Repair"], zipCodes: "10001 1002" }),
      "USD",
    );
    expect(result).toEqual({
      success: false,
      errors: {
        name: "Enter the name.",
        email: "Enter an email address, like pat@example.com.",
        services: "Choose services from the list.",
        zipCodes: '"1002" is not a 5-digit ZIP code.',
      },
    });
  });

  test("needs at least one service, and refuses a name on two lines or over its length", () => {
    const result = validatePartner(
      form({ ...valid, services: [], name: "Ana\nRuiz", business: "x".repeat(161) }),
      "USD",
    );
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors.services).toBe("Choose at least one service.");
    expect(result.errors.name).toBe("The name must be one line.");
    expect(result.errors.business).toBe("The business can be at most 160 characters.");
  });

  test("a fee per referral in the currency's minor units; blank is the default; bad amounts are refused in words", () => {
    const fee = (text: string, currency = "USD") => validatePartner(form({ ...valid, fee: text }), currency);
    expect(fee("45.50")).toMatchObject({ success: true, partner: { feeMinor: 4550 } });
    expect(fee("")).toMatchObject({ success: true, partner: { feeMinor: null } });
    expect(fee("1,200", "JPY")).toMatchObject({ success: true, partner: { feeMinor: 1200 } });
    for (const [text, currency, error] of [
      ["-5", "USD", "Enter an amount, like 125 or 125.50, with no sign or currency symbol."],
      ["0", "USD", "Enter an amount above zero."],
      ["45.505", "USD", "USD amounts have at most 2 decimals."],
      ["100.5", "JPY", "JPY amounts have no decimals."],
      ["2000000", "USD", "Enter at most 1,000,000."],
    ] as const) {
      expect(fee(text, currency)).toEqual({ success: false, errors: { feeMinor: error } });
    }
  });

  test("a fee for some services, by the site's service names; blank ones are the partner's fee", () => {
    const drains = PARTNER_SERVICES.indexOf("Drain Services");
    const heaters = PARTNER_SERVICES.indexOf("Water Heater Services");
    expect(
      validatePartner(
        form({ ...valid, fee: "45", [`serviceFee${drains}`]: "90", [`serviceFee${heaters}`]: " " }),
        "USD",
      ),
    ).toMatchObject({ success: true, partner: { feeMinor: 4500, serviceFees: { "Drain Services": 9000 } } });
    expect(validatePartner(form({ ...valid, [`serviceFee${drains}`]: "-1" }), "USD")).toEqual({
      success: false,
      errors: { serviceFees: "Drain Services: Enter an amount, like 125 or 125.50, with no sign or currency symbol." },
    });
  });

  test("calls: sent or not, a fee per call (blank: the default), hours, a cap (blank: none) and a priority", () => {
    expect(
      validatePartner(
        form({
          ...valid,
          takesCalls: "on",
          callFee: "35.50",
          hours: " Mon-Fri  07:00-19:00, Sat 08:00-12:00",
          callsPerDay: " 12 ",
          priority: "1",
        }),
        "USD",
      ),
    ).toMatchObject({
      success: true,
      partner: {
        takesCalls: true,
        callFeeMinor: 3550,
        hours: "Mon-Fri 07:00-19:00, Sat 08:00-12:00",
        callsPerDay: 12,
        priority: 1,
      },
    });
  });

  test("refuses hours that do not parse, a negative or fractional-cent fee per call, a cap of 0 or text, and a priority out of 1-3", () => {
    const errors = (fields: Record<string, string>) => {
      const result = validatePartner(form({ ...valid, ...fields }), "USD");
      return result.success ? null : result.errors;
    };
    expect(errors({ hours: "weekdays 9-5" })).toEqual({
      hours: '"weekdays" is not a day: write Mon, Tue, Wed, Thu, Fri, Sat or Sun.',
    });
    expect(errors({ hours: "" })).toEqual({
      hours: "Enter the hours. Write 24/7, or days and times like Mon-Fri 07:00-19:00, Sat 08:00-12:00.",
    });
    expect(errors({ callFee: "-10" })).toEqual({
      callFeeMinor: "Enter an amount, like 125 or 125.50, with no sign or currency symbol.",
    });
    expect(errors({ callFee: "10.005" })).toEqual({ callFeeMinor: "USD amounts have at most 2 decimals." });
    const cap = "Enter a whole number of calls from 1 to 1,000, or leave it blank for no cap.";
    for (const text of ["0", "ten", "2.5", "-3", "1001"])
      expect(errors({ callsPerDay: text })).toEqual({ callsPerDay: cap });
    expect(errors({ priority: "4" })).toEqual({ priority: "Choose a priority: 1, 2 or 3." });
  });
});
