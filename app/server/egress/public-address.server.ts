import ipaddr from "ipaddr.js";
import { isIP } from "node:net";

/**
 * IPv6's global unicast space (IANA's IPv6 Address Space registry): every IPv6 address on the public internet is in
 * it. Outside it are this machine, the IPv4-compatible (::/96) and IPv4-translated forms, site-local (fec0::/10),
 * link-local, unique-local, multicast and space the IETF keeps in reserve.
 */
const GLOBAL_UNICAST = ipaddr.IPv6.parse("2000::");
const GLOBAL_UNICAST_PREFIX = 3;

/**
 * True for an address on the public internet; false for anything else, or for what is not an address written the
 * usual way (`0x7f.1` is not). An address is public when it falls in none of the ranges of IANA's IPv4 and IPv6
 * Special-Purpose Address Registries (as `ipaddr.js` names them: private networks, loopback, link-local where cloud
 * metadata answers, carrier-grade NAT, documentation, benchmarking, NAT64, 6to4, Teredo, segment routing and the
 * rest), even those the registry calls globally reachable, since no push service or webhook receiver is on them.
 * An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged by its IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().range() === "unicast";
  return ipv6.match(GLOBAL_UNICAST, GLOBAL_UNICAST_PREFIX) && ipv6.range() === "unicast";
}
