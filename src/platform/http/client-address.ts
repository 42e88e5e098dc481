import { BlockList, isIPv4, isIPv6 } from "node:net";
import { trimOws } from "./http1.ts";

/** "::ffff:10.0.0.7" (an IPv4 peer on a dual-stack socket) and "[fd00::1]" name plain addresses. */
export function plainAddress(text: string): string {
  let a = trimOws(text);
  if (a.startsWith("[") && a.endsWith("]")) a = a.slice(1, -1);
  if (a.toLowerCase().startsWith("::ffff:") && isIPv4(a.slice(7))) a = a.slice(7);
  return a;
}

function familyOf(address: string): "ipv4" | "ipv6" | null {
  return isIPv4(address) ? "ipv4" : isIPv6(address) ? "ipv6" : null;
}

/**
 * `--trust-proxy CIDR...`: the reverse proxies whose X-Forwarded-For may name the client. Only a
 * peer inside one of them is believed, and only for the hops it and other trusted proxies added:
 * the client is the right-most address that is not a trusted proxy, so a client cannot pick its
 * own address by sending an X-Forwarded-For of its own.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly cidrs: readonly string[];

  constructor(cidrs: readonly string[] = []) {
    for (const cidr of cidrs) {
      const [address = "", bits, extra] = cidr.trim().split("/");
      const plain = plainAddress(address);
      const family = familyOf(plain);
      const max = family === "ipv4" ? 32 : 128;
      const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
      if (!family || extra !== undefined || !(prefix >= 0 && prefix <= max))
        throw new Error(`"${cidr}" is not an address or CIDR block (e.g. 10.0.0.5 or 10.0.0.0/24)`);
      this.list.addSubnet(plain, prefix, family);
    }
    this.cidrs = [...cidrs];
  }

  trusts(address: string): boolean {
    if (this.cidrs.length === 0) return false;
    const plain = plainAddress(address);
    const family = familyOf(plain);
    return family !== null && this.list.check(plain, family);
  }

  /** Who sent the request: the peer, or the client a trusted proxy names. */
  client(peer: string, forwardedFor: string | null | undefined): string {
    if (!forwardedFor || !this.trusts(peer)) return plainAddress(peer);
    const hops = forwardedFor.split(",");
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plainAddress(hops[i]!);
      // A hop that is not an address was not written by a trusted proxy: stop at what we know.
      if (familyOf(hop) === null) return plainAddress(peer);
      if (!this.trusts(hop)) return hop;
    }
    return plainAddress(peer);
  }
}
