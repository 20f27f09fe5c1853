import { describe, expect, test } from "vitest";
import { clientKey } from "./client-key.server.ts";

describe("clientKey", () => {
  test("keeps an IPv4 address, also when written as IPv4-mapped IPv6", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  test("counts every address of one IPv6 /64 as one client", () => {
    const key = clientKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8:0001:0002::1")).toBe(key);
    expect(clientKey("2001:db8:1:2::")).toBe(key);
    expect(clientKey("2001:db8:1:3::1")).not.toBe(key);
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
  });
});
