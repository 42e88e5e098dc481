import { TrustedProxies } from "../platform/http/client-address.ts";
import type { ConnectionLimits } from "../platform/http/connection-guard.ts";
import { intOpt, listOpt, type OptionValues, UsageError } from "./args.ts";

/** serve's flags for what a client may do: rate limits, trusted proxies, connections, deadlines. */
export const limitOptions = [
  {
    name: "lenient-request-target",
    type: "boolean" as const,
    help: "no effect: raw UTF-8 in the request target is always read (kept so that older unit files still start)",
  },
  {
    name: "allowed-hosts",
    type: "list" as const,
    valueName: "NAME",
    help: "host names or addresses this box answers for (comma-separated too); a request for another Host gets 421 (default: any)",
  },
  {
    name: "rate-limit-per-second",
    type: "string" as const,
    valueName: "N",
    default: "0",
    help: "requests a second each credential may send on average, 429 above it (0: no limit; deploy/parkd.service sets 100)",
  },
  {
    name: "rate-limit-burst",
    type: "string" as const,
    valueName: "N",
    default: "200",
    help: "requests a credential may send at once before --rate-limit-per-second applies",
  },
  {
    name: "public-rate-limit-per-second",
    type: "string" as const,
    valueName: "N",
    default: "50",
    help: "requests a second each client address (IPv6: each /64) may send to the routes that need no credential (lots, quotes, board, handheld setup, session, /readyz, the document) on average, four times as many at once; 429 above it (0: no limit)",
  },
  {
    name: "trust-proxy",
    type: "list" as const,
    valueName: "CIDR",
    help: "reverse proxy address or CIDR block whose X-Forwarded-For names the client (comma-separated too)",
  },
  {
    name: "max-connections",
    type: "string" as const,
    valueName: "N",
    default: "1024",
    help: "open connections in all; past it the slowest request in progress is closed to admit a new one",
  },
  {
    name: "max-connections-per-address",
    type: "string" as const,
    valueName: "N",
    default: "64",
    help: "open connections from one client address (trusted proxies are exempt)",
  },
  {
    name: "request-timeout",
    type: "string" as const,
    valueName: "S",
    default: "30",
    help: "seconds a client has to send a whole request, body included (headers: half of it, at most 15)",
  },
];

/** --allowed-hosts: names or addresses without a port, in lower case ([…] around IPv6 addresses). */
export function allowedHostsOpt(v: OptionValues): string[] {
  const hosts = listOpt(v, "allowed-hosts").flatMap((s) =>
    s
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  return hosts.map((h) => {
    const name = h.includes(":") && !h.startsWith("[") ? `[${h}]` : h;
    if (!/^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~]+)$/.test(name))
      throw new UsageError(`--allowed-hosts: "${h}" is not a host name or address (no port, no scheme)`);
    return name;
  });
}

export function trustProxyOpt(v: OptionValues): string[] {
  const cidrs = listOpt(v, "trust-proxy").flatMap((s) =>
    s
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean),
  );
  try {
    new TrustedProxies(cidrs);
  } catch (e) {
    throw new UsageError(`--trust-proxy: ${(e as Error).message}`);
  }
  return cidrs;
}

/** What the front end allows before a request reaches the app (src/platform/http/connection-guard.ts). */
export function connectionLimits(v: OptionValues, trustProxy: readonly string[]): ConnectionLimits {
  const requestTimeoutMs = (intOpt(v, "request-timeout", 2, 3600) ?? 30) * 1000;
  return {
    maxConnections: intOpt(v, "max-connections", 1, 1_000_000) ?? 1024,
    maxPerAddress: intOpt(v, "max-connections-per-address", 1, 1_000_000) ?? 64,
    requestTimeoutMs,
    headersTimeoutMs: Math.min(15_000, requestTimeoutMs / 2),
    exempt: new TrustedProxies(trustProxy),
  };
}
