// The SSRF guard's address rules: which resolved addresses the server may connect to. Deny by default: only
// public unicast IPv4 and global unicast IPv6 (2000::/3) pass, unless an operator opens a range with
// WEBHOOK_ALLOWED_NETWORKS. Address classes come from ipaddr.js (docs/adr/0010-webhooks-ipaddr-standardwebhooks.md).
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

export class NetworkPolicy {
  private readonly allowed: readonly Cidr[];

  /** `allowedNetworks`: CIDRs (`127.0.0.0/8`, `10.1.2.3/32`, `::1/128`) opened despite the rules below. */
  constructor(allowedNetworks: readonly string[] = []) {
    this.allowed = allowedNetworks.map(parseCidr);
  }

  /** Null when the server may connect to `address` (a literal IP), else the reason (`loopback`, `private`…). */
  refusal(address: string): string | null {
    if (!ipaddr.isValid(address)) return 'not an IP address';
    const parsed = ipaddr.parse(address);
    // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) reaches the IPv4 host: judge that host.
    const effective =
      parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
        ? (parsed as ipaddr.IPv6).toIPv4Address()
        : parsed;
    if (this.isAllowed(parsed) || (effective !== parsed && this.isAllowed(effective))) return null;
    if (effective.kind() === 'ipv4') {
      const range = (effective as ipaddr.IPv4).range();
      return range === 'unicast' ? null : range;
    }
    const v6 = effective as ipaddr.IPv6;
    const range = v6.range();
    if (range !== 'unicast') return range;
    const first = v6.parts[0]!;
    // ::/16 holds the IPv4-compatible form (::127.0.0.1), which ipaddr.js calls unicast; outside 2000::/3
    // nothing is allocated for global unicast, so refuse it all.
    if (first < 0x2000 || first > 0x3fff) return first === 0 ? 'ipv4Compatible' : 'reserved';
    return null;
  }

  private isAllowed(address: Address): boolean {
    return this.allowed.some(
      ([network, bits]) => network.kind() === address.kind() && address.match(network as never, bits),
    );
  }
}

/** Parses one CIDR; a bare address is a /32 or /128. Throws on anything else (config reports it). */
export function parseCidr(text: string): Cidr {
  const value = text.trim();
  if (value.includes('/')) return ipaddr.parseCIDR(value);
  const address = ipaddr.parse(value);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** Host of a URL without the brackets of an IPv6 literal. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
