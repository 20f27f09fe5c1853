import { isIPv4, isIPv6 } from "node:net";

/**
 * The key a client's requests are limited by. An IPv4 address is one client; an IPv6 client usually holds a
 * whole /64 (one home or phone network), so its addresses share a key: otherwise one visitor could take a
 * fresh address, and a fresh limit, for every request. IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function clientKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  if (!isIPv6(address.split("%")[0]!)) return "unknown";
  return `${ipv6Groups(address.split("%")[0]!).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros; "::" expanded. */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.split("::") as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(":") : []);
  const headGroups = parse(head);
  const tailGroups = parse(tail ?? "");
  // An embedded IPv4 tail (::ffff:1.2.3.4 is handled above; here e.g. 64:ff9b::1.2.3.4) is two groups.
  const expandIpv4 = (groups: string[]) =>
    groups.flatMap((group) => {
      if (!group.includes(".")) return [group];
      const [a, b, c, d] = group.split(".").map(Number) as [number, number, number, number];
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const first = expandIpv4(headGroups);
  const last = expandIpv4(tailGroups);
  const zeros = tail === undefined ? [] : Array<string>(8 - first.length - last.length).fill("0");
  return [...first, ...zeros, ...last].map((group) => Number.parseInt(group, 16).toString(16));
}
