/**
 * The side-by-side run against the peer (../shared/peer/compare.sh: the same plate lookup and
 * ticket intake as a plain Node + Fastify 5 + better-sqlite3 service, a raw Bun.serve ceiling and
 * dist/parkd, servers on core 0, wrk on core 1, rounds alternating), parsed for bench/results.md.
 */
import { spawnSync } from "bun";

export interface Round {
  ceiling: number;
  peerLookup: number;
  peerLookupP99: number;
  parkdLookup: number;
  parkdLookupP99: number;
  peerIntake: number;
  peerIntakeP99: number;
  parkdIntake: number;
  parkdIntakeP99: number;
}

export interface Comparison {
  rounds: Round[];
  lookupRatio: number;
  intakeRatio: number;
  peerLookupP99: number;
  parkdLookupP99: number;
}

function ms(v: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Runs compare.sh on a copy of `store` with `bin`; throws when it fails or prints no rounds. */
export function compareWithPeer(
  script: string,
  bin: string,
  store: string,
  rounds: number,
  seconds: number,
  tls = false,
): Comparison {
  const r = spawnSync(["bash", script, String(rounds), String(seconds)], {
    cwd: `${import.meta.dir}/..`,
    env: { ...process.env, PARKD_BIN: bin, PARKD_STORE: store, COMPARE_TLS: tls ? "1" : "0" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = r.stdout.toString();
  if (r.exitCode !== 0) throw new Error(`compare.sh failed (${r.exitCode}): ${r.stderr}\n${out}`);
  // "1 | 131000 | 35000 2.6ms 0 | 52000 1.9ms 0 | 3000 28ms | 9000 17ms | 1.49 | 3.00"
  const parsed: Round[] = [];
  for (const line of out.split("\n")) {
    const cells = line.split(" | ");
    if (cells.length !== 8 || !/^\d+$/.test(cells[0]!)) continue;
    const [pl, pl99] = cells[2]!.split(" ");
    const [kl, kl99] = cells[3]!.split(" ");
    const [pi, pi99] = cells[4]!.split(" ");
    const [ki, ki99] = cells[5]!.split(" ");
    parsed.push({
      ceiling: Number(cells[1]),
      peerLookup: Number(pl),
      peerLookupP99: ms(pl99 ?? ""),
      parkdLookup: Number(kl),
      parkdLookupP99: ms(kl99 ?? ""),
      peerIntake: Number(pi),
      peerIntakeP99: ms(pi99 ?? ""),
      parkdIntake: Number(ki),
      parkdIntakeP99: ms(ki99 ?? ""),
    });
  }
  if (parsed.length === 0) throw new Error(`compare.sh printed no rounds:\n${out}`);
  return {
    rounds: parsed,
    lookupRatio: median(parsed.map((x) => x.parkdLookup / x.peerLookup)),
    intakeRatio: median(parsed.map((x) => x.parkdIntake / x.peerIntake)),
    peerLookupP99: median(parsed.map((x) => x.peerLookupP99)),
    parkdLookupP99: median(parsed.map((x) => x.parkdLookupP99)),
  };
}

export function comparisonMarkdown(c: Comparison, scheme: "HTTP" | "HTTPS"): string[] {
  return [
    `## Side by side with the peer over ${scheme} (../shared/peer/compare.sh${scheme === "HTTPS" ? " with COMPARE_TLS=1: parkd's default serve and the peer on the same certificate" : ""}, same run)`,
    "",
    "The peer: the same plate lookup and ticket intake as a plain Node + Fastify 5 + better-sqlite3",
    "service on its own 1,000,000-ticket store. Servers on core 0, wrk on core 1 (1 thread, 50",
    "connections), rounds alternating; only the same-round ratios mean anything on this machine.",
    "",
    "| round | ceiling req/s | peer lookup req/s (p99 ms) | parkd lookup req/s (p99 ms) | lookup parkd/peer | peer intake req/s (p99 ms) | parkd intake req/s (p99 ms) | intake parkd/peer |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...c.rounds.map(
      (r, i) =>
        `| ${i + 1} | ${r.ceiling} | ${r.peerLookup} (${r.peerLookupP99}) | ${r.parkdLookup} (${r.parkdLookupP99}) | ${(r.parkdLookup / r.peerLookup).toFixed(2)} | ${r.peerIntake} (${r.peerIntakeP99}) | ${r.parkdIntake} (${r.parkdIntakeP99}) | ${(r.parkdIntake / r.peerIntake).toFixed(2)} |`,
    ),
    `| median | | (${c.peerLookupP99.toFixed(2)}) | (${c.parkdLookupP99.toFixed(2)}) | **${c.lookupRatio.toFixed(2)}** | | | **${c.intakeRatio.toFixed(2)}** |`,
    "",
  ];
}
