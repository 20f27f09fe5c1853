import { createHmac } from "node:crypto";

/**
 * A TOTP code as an authenticator app computes it (RFC 6238 over RFC 4226: HMAC-SHA-1 of the 30-second step,
 * dynamic truncation, 6 digits), written out here so that tests do not check the server with its own library.
 * `stepOffset` 1 is the code the app will show in the next 30 seconds.
 */
export function totpCode(base32Secret: string, stepOffset = 0, now = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const character of base32Secret.replace(/[\s=]/g, "").toUpperCase()) {
    bits += alphabet.indexOf(character).toString(2).padStart(5, "0");
  }
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 1000 / 30) + stepOffset));
  const hash = createHmac("sha1", key).update(counter).digest();
  const offset = hash[hash.length - 1]! & 0x0f;
  const binary = hash.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}
