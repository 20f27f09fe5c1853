import { describe, expect, test } from "vitest";
import { referralToken, verifyReferralToken } from "./referral-token.server.ts";

const KEY = "a test key";
const ID = "0b6a3c52-6f0e-4b8e-9d0a-2f4c5e6a7b8c";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("a referral or statement link's token", () => {
  test("opens what it was issued for, and nothing else", () => {
    const token = referralToken(KEY, ID, "statement");
    expect(verifyReferralToken(KEY, token, "statement")).toBe(ID);
    expect(verifyReferralToken(KEY, token, "referral")).toBeNull();
    expect(verifyReferralToken("another key", token, "statement")).toBeNull();
  });

  test("is refused when any character of its signature is changed, even one that decodes to the same bytes", () => {
    const token = referralToken(KEY, ID);
    // The signature's last character carries 4 bits and 2 unused ones: flipping an unused bit changes the text
    // the operator's partner was sent but not the bytes it decodes to. Only the link as issued opens.
    const last = BASE64URL.indexOf(token.at(-1)!);
    const sameBytes = `${token.slice(0, -1)}${BASE64URL[last ^ 1]}`;
    expect(Buffer.from(sameBytes.split(".")[1]!, "base64url")).toEqual(Buffer.from(token.split(".")[1]!, "base64url"));
    expect(verifyReferralToken(KEY, sameBytes)).toBeNull();
    for (let at = ID.length + 1; at < token.length; at += 1) {
      const changed = BASE64URL[(BASE64URL.indexOf(token[at]!) + 32) % 64];
      expect(verifyReferralToken(KEY, `${token.slice(0, at)}${changed}${token.slice(at + 1)}`)).toBeNull();
    }
  });
});
