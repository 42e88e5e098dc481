/**
 * How well and how fast the phone reads plates: synthetic camera frames (test/support/plate-scene.ts)
 * read in Chromium by the same module the attendant page uses, with the CPU slowed as a phone's.
 * Counts exact reads, wrong reads (a plate, but another car's: the dangerous case) and no reads,
 * by degradation; times frame → result (crop, preparation, engine, readPlate) after warm-up;
 * and the engine's load time and bytes. Files are served as the box serves them, under the
 * app's content security policy, and any request outside /plate-reader/ is reported.
 *
 *   bun bench/plate-reads.ts [--count 500] [--seed 1] [--throttle 4] [--slowdown cgroup|cdp] [--threshold 0.5]
 *     [--psm 7] [--char-height 40] [--ink-ratio 0.72] [--line contrastShare=0.5,minContrast=32]
 *     [--look DIR] [--json FILE]
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PLATE_READER_FILES } from "../src/client/plate-reader/files.ts";
import { CHROMIUM, CHROMIUM_ARGS } from "../test/support/browser.ts";
import type { SceneResult } from "./plate-reads/page.ts";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "500" },
    seed: { type: "string", default: "1" },
    throttle: { type: "string", default: "4" },
    warmup: { type: "string", default: "5" },
    threshold: { type: "string" },
    psm: { type: "string" },
    raw: { type: "boolean", default: false },
    "char-height": { type: "string" },
    "ink-ratio": { type: "string" },
    line: { type: "string" },
    look: { type: "string" },
    json: { type: "string" },
    csp: { type: "string", default: "app" },
    slowdown: { type: "string", default: "cgroup" },
  },
});
const COUNT = Number(args.count);
const SEED = Number(args.seed);
const THROTTLE = Number(args.throttle);
const WARMUP = Number(args.warmup);
const ROOT = resolve(import.meta.dir, "..");

/**
 * The app's policy (src/modules/web/static-routes.ts) with what WebAssembly needs:
 * 'wasm-unsafe-eval' lets a page or worker compile wasm without allowing eval. `--csp app` runs
 * with it; `--csp strict` without it, to show what the box's header must say.
 */
const CSP = [
  "default-src 'none'",
  args.csp === "strict" ? "script-src 'self'" : "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const built = await Bun.build({
  entrypoints: [join(import.meta.dir, "plate-reads/page.ts")],
  target: "browser",
  format: "esm",
  minify: true,
});
if (!built.success) throw new Error(`bundling the bench page failed: ${built.logs.join("\n")}`);
const pageJs = await built.outputs[0]!.text();

const stray: string[] = [];
const served = new Map<string, number>();
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    const headers = { "content-security-policy": CSP, "cache-control": "no-store" };
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    if (path === "/")
      return new Response(
        '<!doctype html><meta charset="utf-8"><title>plate-reads</title><script type="module" src="/bench.js"></script>',
        {
          headers: { ...headers, "content-type": "text/html; charset=utf-8" },
        },
      );
    if (path === "/bench.js")
      return new Response(pageJs, { headers: { ...headers, "content-type": "text/javascript" } });
    const file = PLATE_READER_FILES.find((f) => `/plate-reader/${f.name}` === path);
    if (file) {
      served.set(file.name, (served.get(file.name) ?? 0) + 1);
      return new Response(Bun.file(join(ROOT, file.from)), {
        headers: { ...headers, "content-type": file.type },
      });
    }
    stray.push(path);
    return new Response("not here", { status: 404 });
  },
});
const origin = `http://127.0.0.1:${server.port}`;

if (!CHROMIUM) throw new Error("Chromium is not installed");
const { chromium } = await import("playwright-core");
/** An unknown switch Chromium ignores, to tell this run's browser process from any other. */
const MARKER = `--parkd-plate-reads=${process.pid}`;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [...CHROMIUM_ARGS.filter((a) => a !== "--headless"), MARKER],
});
const context = await browser.newContext({ viewport: { width: 400, height: 300 } });
const page = await context.newPage();
const problems: string[] = [];
page.on("console", (m) => {
  if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
});
page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
page.on("request", (r) => {
  if (!r.url().startsWith(origin)) stray.push(r.url());
});

/**
 * The CPU slowed `rate` times. DevTools' Emulation.setCPUThrottlingRate slows the page's main
 * thread only: a worker answers "Operation is only supported for pages, not workers", and the
 * engine runs in a worker. So by default the whole renderer process (main thread, workers and
 * all) is put in a cgroup with a CPU quota of 1/rate of one core, which slows the engine as much
 * as the page. `--slowdown cdp` uses the DevTools throttle instead (the worker then runs at full
 * speed, flattering the figures).
 */
const CGROUP = `/sys/fs/cgroup/cpu/parkd-plate-reads-${process.pid}`;
let slowdownHow = "none";
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}
async function slowDown(rate: number): Promise<void> {
  if (rate <= 1) return;
  if (args.slowdown === "cdp") {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate });
    slowdownHow = `DevTools CPU throttle ${rate}× (page main thread only; the engine's worker at full speed)`;
    return;
  }
  // Chromium's browser process is the one launched with this run's marker; its renderers are
  // its descendants, so no other Chromium on the machine is touched.
  const browserPid = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .find((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, "utf8").includes(MARKER);
      } catch {
        return false;
      }
    });
  if (!browserPid) throw new Error("cannot find this run's Chromium");
  const renderers = descendants(Number(browserPid)).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes("--type=renderer");
    } catch {
      return false;
    }
  });
  mkdirSync(CGROUP, { recursive: true });
  writeFileSync(join(CGROUP, "cpu.cfs_period_us"), "10000");
  writeFileSync(join(CGROUP, "cpu.cfs_quota_us"), String(Math.round(10000 / rate)));
  for (const p of renderers) writeFileSync(join(CGROUP, "cgroup.procs"), String(p));
  slowdownHow = `renderer processes (${renderers.length}) held to 1/${rate} of one core (cgroup CPU quota), workers included`;
}
function speedUp(): void {
  if (!existsSync(CGROUP)) return;
  for (const p of readFileSync(join(CGROUP, "cgroup.procs"), "utf8").split("\n").filter(Boolean))
    writeFileSync("/sys/fs/cgroup/cpu/cgroup.procs", p);
  rmdirSync(CGROUP);
}
process.on("exit", () => {
  try {
    speedUp();
  } catch {}
});

await page.goto(`${origin}/`);
await page.waitForFunction(() => document.title === "plate-reads ready");
const loadOpts = {
  ...(args.psm ? { pageSegMode: args.psm } : {}),
  ...(args.raw ? { raw: true } : {}),
  line: {
    ...(args["char-height"] ? { charHeight: Number(args["char-height"]) } : {}),
    ...(args["ink-ratio"] ? { inkRatio: Number(args["ink-ratio"]) } : {}),
    // Any other of the preparation's numbers (LineOptions), as name=value pairs.
    ...Object.fromEntries(
      (args.line ?? "")
        .split(",")
        .filter(Boolean)
        .map((pair) => {
          const [name, value] = pair.split("=");
          return [name!, Number(value)];
        }),
    ),
  },
};
type Bench = {
  plateBench: {
    load(o: unknown): Promise<number>;
    run(seed: number, from: number, count: number): Promise<SceneResult[]>;
    look(seed: number, index: number): Promise<{ frame: string; line: string | null; work: string }>;
  };
};
// The load is timed at full speed and again slowed: the first is a fresh phone's best case.
const loadMs = await page
  .evaluate((o) => (globalThis as unknown as Bench).plateBench.load(o), loadOpts)
  .catch((e: unknown) => {
    console.log(`the reader did not start: ${e}\n${[...new Set(problems)].join("\n")}`);
    process.exit(1);
  });
await slowDown(THROTTLE);
await page.evaluate(() =>
  (globalThis as unknown as { plateBench: { close(): Promise<void> } }).plateBench.close(),
);
const loadSlowMs = await page.evaluate((o) => (globalThis as unknown as Bench).plateBench.load(o), loadOpts);

// Warm-up on scenes of another seed, not counted.
await page.evaluate(([s, n]) => (globalThis as unknown as Bench).plateBench.run(s, 0, n), [
  SEED + 1_000_003,
  WARMUP,
] as const);

const results: SceneResult[] = [];
const started = Date.now();
for (let from = 0; from < COUNT; from += 20) {
  const n = Math.min(20, COUNT - from);
  results.push(
    ...(await page.evaluate(([s, f, c]) => (globalThis as unknown as Bench).plateBench.run(s, f, c), [
      SEED,
      from,
      n,
    ] as const)),
  );
  process.stderr.write(
    `\r${results.length}/${COUNT} scenes (${Math.round((Date.now() - started) / 1000)} s)`,
  );
}
process.stderr.write("\n");

const threshold = args.threshold === undefined ? 0 : Number(args.threshold);
const verdict = (r: SceneResult) =>
  r.read === null || r.confidence < threshold ? "none" : r.read === r.plate ? "exact" : "wrong";
const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : "-");
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

function row(name: string, rs: SceneResult[]): string {
  const exact = rs.filter((r) => verdict(r) === "exact").length;
  const wrong = rs.filter((r) => verdict(r) === "wrong").length;
  const none = rs.length - exact - wrong;
  const ms = rs.map((r) => r.ms);
  return `| ${name} | ${rs.length} | ${pct(exact, rs.length)} | ${pct(wrong, rs.length)} | ${pct(none, rs.length)} | ${quantile(ms, 0.5).toFixed(0)} | ${quantile(ms, 0.95).toFixed(0)} |`;
}

const bytes = PLATE_READER_FILES.map((f) => ({ name: f.name, bytes: statSync(join(ROOT, f.from)).size }));
console.log(
  `\nplate reads: seed ${SEED}, ${COUNT} scenes, CPU ${THROTTLE}× slower, threshold ${threshold}${args.raw ? ", raw crop (no preparation)" : ""}${loadOpts.pageSegMode ? `, psm ${loadOpts.pageSegMode}` : ""}${args["char-height"] ? `, char height ${args["char-height"]}` : ""}${args["ink-ratio"] ? `, ink ratio ${args["ink-ratio"]}` : ""}${args.line ? `, line ${args.line}` : ""}\n`,
);
console.log("| scenes | n | exact | wrong | no read | median ms | p95 ms |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
console.log(row("all", results));
console.log(
  row(
    "clean",
    results.filter((r) => r.degradations.length === 0),
  ),
);
for (const d of ["blur", "glare", "shadow", "dirt", "low-light", "noise", "jpeg-low"])
  console.log(
    row(
      d,
      results.filter((r) => r.degradations.includes(d)),
    ),
  );
for (const [w, h] of [
  [640, 480],
  [1280, 720],
  [1920, 1080],
  [720, 1280],
])
  console.log(
    row(
      `${w}×${h}`,
      results.filter((r) => r.width === w && r.height === h),
    ),
  );
const engine = results.filter((r) => r.engineMs > 0).map((r) => r.engineMs);
console.log(
  `\nengine alone: median ${quantile(engine, 0.5).toFixed(0)} ms, p95 ${quantile(engine, 0.95).toFixed(0)} ms; line found in ${pct(results.filter((r) => r.chars > 0).length, results.length)}`,
);
console.log(`slowed: ${slowdownHow}`);
console.log(
  `load: ${loadMs.toFixed(0)} ms at full speed, ${loadSlowMs.toFixed(0)} ms at ${THROTTLE}× (files from a local server)`,
);
console.log(
  `files: ${bytes.map((b) => `${b.name} ${b.bytes.toLocaleString("en")} B`).join(", ")}; total ${bytes.reduce((s, b) => s + b.bytes, 0).toLocaleString("en")} B`,
);

// Wrong reads against confidence, to choose the threshold by.
const wrongs = results.filter((r) => r.read !== null && r.read !== r.plate);
const rights = results.filter((r) => r.read === r.plate);
console.log("\n| threshold | exact | wrong |");
console.log("| ---: | ---: | ---: |");
for (const t of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
  console.log(
    `| ${t} | ${pct(rights.filter((r) => r.confidence >= t).length, results.length)} | ${pct(wrongs.filter((r) => r.confidence >= t).length, results.length)} |`,
  );
if (wrongs.length) {
  console.log("\nwrong reads:");
  for (const r of wrongs)
    console.log(
      `  #${r.index} ${r.plate} read ${r.read} from "${r.text}" conf ${r.confidence.toFixed(2)} [${r.degradations.join(", ")}]`,
    );
}
const noReads = results.filter((r) => r.read === null);
if (noReads.length) {
  console.log(`\nno reads (${noReads.length}, first 30):`);
  for (const r of noReads.slice(0, 30))
    console.log(
      `  #${r.index} ${r.plate} ${r.width}×${r.height} "${r.text}" ${r.why} chars ${r.chars} [${r.degradations.join(", ")}]`,
    );
}
if (stray.length) console.log(`\nREQUESTS OUTSIDE /plate-reader/: ${[...new Set(stray)].join(", ")}`);
console.log(`files fetched: ${[...served].map(([n, c]) => `${n} ×${c}`).join(", ")}`);
if (problems.length) console.log(`\nbrowser said:\n  ${[...new Set(problems)].slice(0, 20).join("\n  ")}`);

if (args.look) {
  // Every scene that was not read exactly, as its frame and its prepared line.
  const dir = resolve(args.look);
  mkdirSync(dir, { recursive: true });
  for (const r of results.filter((r) => verdict(r) !== "exact")) {
    const seen = await page.evaluate(([s, i]) => (globalThis as unknown as Bench).plateBench.look(s, i), [
      SEED,
      r.index,
    ] as const);
    writeFileSync(join(dir, `${r.index}-${r.plate}.png`), Buffer.from(seen.frame.split(",")[1]!, "base64"));
    writeFileSync(join(dir, `${r.index}-${r.plate}.work`), Buffer.from(seen.work.split(",")[1]!, "base64"));
    if (seen.line)
      writeFileSync(
        join(dir, `${r.index}-${r.plate}-line.png`),
        Buffer.from(seen.line.split(",")[1]!, "base64"),
      );
  }
  console.log(`\nframes and lines of the misses in ${dir}`);
}
if (args.json) writeFileSync(args.json, JSON.stringify({ loadMs, loadSlowMs, bytes, results }, null, 1));

speedUp();
await browser.close();
server.stop(true);
