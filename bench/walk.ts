/**
 * How many source files (and folders) one request runs through, from the socket to the store:
 * the files with a line that ran more often in a box that answered one more request of that
 * kind (coverage of bench/walk/probe.ts, once without and once with the extra request, after a
 * warm-up of each kind; in each of three pairs, so a timer that ran in one box only is not
 * counted), by the path a request takes: the front end's direct answer, which a
 * plain request gets as `serve` runs, and the app's, which every other request gets. Run on
 * demand: `bun bench/walk.ts`; docs/architecture.md keeps the figures.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
/** Pairs of boxes (without and with the one more request) per kind of request. */
const RUNS = 3;

function hits(kind: string, direct: boolean, extra: boolean): Map<string, Map<number, number>> {
  const dir = mkdtempSync(join(tmpdir(), "parkd-walk-"));
  try {
    const run = Bun.spawnSync(
      [
        "bun",
        "test",
        "--coverage",
        "--coverage-reporter=lcov",
        `--coverage-dir=${dir}`,
        "./bench/walk/probe.ts",
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          WALK_KIND: kind,
          WALK_EXTRA: extra ? "1" : "0",
          WALK_DIRECT: direct ? "1" : "0",
        },
        stderr: "pipe",
      },
    );
    if (run.exitCode !== 0) throw new Error(`probe failed:\n${run.stderr.toString()}`);
    const out = new Map<string, Map<number, number>>();
    let file = "";
    for (const line of readFileSync(join(dir, "lcov.info"), "utf8").split("\n")) {
      if (line.startsWith("SF:")) {
        file = relative(join(ROOT, "src"), resolve(ROOT, line.slice(3)));
        out.set(file, new Map());
      } else if (line.startsWith("DA:")) {
        const [n, h] = line.slice(3).split(",").map(Number);
        out.get(file)!.set(n!, h!);
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [kind, direct] of [
  ["intake", true],
  ["lookup", true],
  ["intake", false],
  ["lookup", false],
] as const) {
  // A file is walked when every one of RUNS pairs says so: a timer that happened to run in one
  // box and not the other shows in one pair, never in all.
  const seen = new Map<string, number>();
  for (let run = 0; run < RUNS; run++) {
    const before = hits(kind, direct, false);
    const after = hits(kind, direct, true);
    for (const [f, lines] of after)
      if (!f.startsWith("..") && [...lines].some(([n, h]) => h > (before.get(f)?.get(n) ?? 0)))
        seen.set(f, (seen.get(f) ?? 0) + 1);
  }
  const walked = [...seen]
    .filter(([, n]) => n === RUNS)
    .map(([f]) => f)
    .sort();
  const sometimes = [...seen].filter(([, n]) => n < RUNS).map(([f]) => f);
  const folders = new Set(walked.map((f) => dirname(f)));
  console.log(`${kind}, ${direct ? "direct" : "app"}: ${walked.length} files in ${folders.size} folders`);
  for (const f of walked) console.log(`  ${f}`);
  if (sometimes.length) console.log(`  (in some runs only, not counted: ${sometimes.sort().join(", ")})`);
}
