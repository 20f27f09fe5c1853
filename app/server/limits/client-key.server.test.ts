import { describe, expect, test } from "vitest";
import { clientKey } from "./client-key.server.ts";

describe("clientKey", () => {
  test("an IPv4 address is its own key, also when written as IPv4-mapped IPv6", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  test("IPv6 addresses in one /64 share a key; another /64 gets its own", () => {
    const key = clientKey("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8:0001:0002:ffff:eeee:dddd:cccc")).toBe(key);
    expect(clientKey("2001:DB8:1:2:abcd::9")).toBe(key);
    expect(clientKey("2001:db8:1:3::1")).not.toBe(key);
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  test("anything that is not an address shares one key", () => {
    expect(clientKey("unknown")).toBe("unknown");
    expect(clientKey("2001:db8::1::2")).toBe("unknown");
  });
});
