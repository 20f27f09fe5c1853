import { describe, expect, it } from "vitest";
import { validateContactRequest, validateOptOutRequest } from "./lead-schemas.ts";

const validContact = {
  firstName: "Ann",
  lastName: "Lee",
  email: "ann.lee@example.com",
  phone: "(555) 123-4567",
  service: "Leaking water heater",
  message: "Water on the floor.",
};
const validOptOut = { name: "Bob Stone", email: "bob@example.com", message: "Please stop.", type: "opt-out" };

const codePoints = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, offset) => String.fromCodePoint(from + offset));
const hex = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Every \p{Cc} but tab, LF and CR: C0, DEL, and C1 (U+0080–U+009F). */
const refusedControls = [...codePoints(0x00, 0x1f), ...codePoints(0x7f, 0x9f)].filter(
  (character) => !["\t", "\n", "\r"].includes(character),
);
const loneSurrogates = ["\uD800", "\uDBFF", "\uDC00", "\uDFFF", "a\uD83Db", "\uDE00x"];
const SINGLE_LINE_FIELDS = ["firstName", "lastName", "service"] as const;

function contactErrorFor(field: string, value: string) {
  const result = validateContactRequest({ ...validContact, [field]: `Ab${value}cd` });
  return result.success ? undefined : result.fieldErrors[field];
}

describe("control characters and broken text", () => {
  it("accepts the valid bodies these cases start from", () => {
    expect(validateContactRequest(validContact).success).toBe(true);
    expect(validateOptOutRequest(validOptOut).success).toBe(true);
  });

  it.each(refusedControls.map((character) => [hex(character), character]))(
    "refuses %s in every text field",
    (_, character) => {
      for (const field of [...SINGLE_LINE_FIELDS, "message"])
        expect(contactErrorFor(field, character), field).toMatch(/characters we cannot accept/);
      const optOut = validateOptOutRequest({ ...validOptOut, name: `Bo${character}b`, message: `x${character}y` });
      expect(optOut.success ? {} : optOut.fieldErrors).toEqual({
        name: "Name contains characters we cannot accept",
        message: "Additional information contains characters we cannot accept",
      });
    },
  );

  it.each(loneSurrogates.map((value) => [JSON.stringify(value), value]))(
    "refuses the lone surrogate in %s",
    (_, value) => {
      for (const field of [...SINGLE_LINE_FIELDS, "message"])
        expect(contactErrorFor(field, value), field).toMatch(/characters we cannot accept/);
    },
  );

  it("keeps tab, CR and LF in multi-line fields", () => {
    const message = "Line one\r\nLine two\n\tindented";
    expect(validateContactRequest({ ...validContact, message })).toEqual({
      success: true,
      data: { ...validContact, message },
    });
    expect(validateOptOutRequest({ ...validOptOut, message }).success).toBe(true);
  });

  it("refuses line breaks in single-line fields, but not a tab", () => {
    for (const field of SINGLE_LINE_FIELDS) {
      for (const lineBreak of ["\r", "\n", "\u2028", "\u2029"])
        expect(contactErrorFor(field, lineBreak), field).toMatch(/must be a single line/);
      expect(contactErrorFor(field, "\t"), field).toBeUndefined();
    }
  });

  it("keeps characters outside the BMP, emoji, and bidirectional text verbatim", () => {
    const lead = { ...validContact, firstName: "Zoë 👩‍🔧", lastName: "כהן", message: "\u202Egnp.exe\u202C 𝄞 مرحبا" };
    expect(validateContactRequest(lead)).toEqual({ success: true, data: lead });
  });
});

describe("the contact request's ZIP code", () => {
  it("is optional: absent or blank is none, five digits are kept", () => {
    expect(validateContactRequest(validContact)).toMatchObject({ success: true, data: { firstName: "Ann" } });
    expect(validateContactRequest({ ...validContact, zip: " " })).toMatchObject({ success: true, data: { zip: "" } });
    expect(validateContactRequest({ ...validContact, zip: " 78701 " })).toMatchObject({
      success: true,
      data: { zip: "78701" },
    });
  });

  it.each(["7870", "787012", "7870a", "78 701"])("refuses %j, saying what it takes", (zip) => {
    expect(validateContactRequest({ ...validContact, zip })).toMatchObject({
      success: false,
      fieldErrors: { zip: "Please enter a 5-digit ZIP code, like 10001" },
    });
  });
});
