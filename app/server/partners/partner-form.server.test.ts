import { describe, expect, test } from "vitest";
import { PARTNER_SERVICES } from "~/lib/partner-services.ts";
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
};

describe("the partner form", () => {
  test("takes ZIP codes separated by spaces, commas or lines, each once", () => {
    expect(validatePartner(form(valid), "USD")).toEqual({
      success: true,
      partner: { ...valid, zipCodes: ["10001", "10002", "10003"], feeMinor: null, serviceFees: {} },
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
});
