import { describe, expect, it } from "vitest";
import { isAllowedOrigin } from "./origin.server.ts";

describe("isAllowedOrigin", () => {
  const allowed = ["https://plumbline.example", "https://partner.example"];
  it("accepts this host, allowed origins and requests without Origin", () => {
    expect(isAllowedOrigin("http://localhost:3000", "localhost:3000", allowed)).toBe(true);
    expect(isAllowedOrigin("https://plumbline.example", "10.0.0.5:3000", allowed)).toBe(true);
    expect(isAllowedOrigin(null, "localhost:3000", allowed)).toBe(true);
  });
  it("refuses other sites, look-alikes and garbage", () => {
    expect(isAllowedOrigin("https://evil.example", "localhost:3000", allowed)).toBe(false);
    expect(isAllowedOrigin("http://plumbline.example", "localhost:3000", allowed)).toBe(false);
    expect(isAllowedOrigin("https://plumbline.example.evil.example", "localhost:3000", allowed)).toBe(false);
    expect(isAllowedOrigin("null", "localhost:3000", allowed)).toBe(false);
  });
});
