/**
 * On demand, not part of the tests: many slow clients against one `parkd serve --http` on
 * 127.0.0.1, and how a normal client fares meanwhile. Each slow connection declares a 60,000-byte
 * POST body and sends one byte a second (from 127.0.0.2... as source addresses, the target is
 * 127.0.0.1 only). The server runs under a lowered descriptor limit (prlimit) so that the
 * descriptor exhaustion the issue saw at 20,000 connections shows at a smaller scale.
 *
 *   bun bench/slow-clients.ts [BIN] [--slow N] [--nofile N] [-- extra serve flags]
 *
 * Prints one line: slow connections attempted / still open, normal requests ok / failed, and the
 * normal client's worst latency. Stops by itself (about 25 s).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const args = process.argv.slice(2);
const extra = args.includes("--") ? args.slice(args.indexOf("--") + 1) : [];
const own = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
const opt = (name: string, dflt: number) => {
  const i = own.indexOf(name);
  return i >= 0 ? Number(own[i + 1]) : dflt;
};
const BIN = resolve(own[0] && !own[0].startsWith("--") ? own[0] : "dist/parkd");
const SLOW = Math.min(opt("--slow", 6000), 15_000);
const NOFILE = opt("--nofile", 4096);
const ADDRESSES = 100;

const port = await new Promise<number>((ok) => {
  const s = createServer();
  s.listen(0, "127.0.0.1", () => {
    const a = s.address();
    s.close(() => ok(typeof a === "object" && a ? a.port : 0));
  });
});
const dir = mkdtempSync(join(tmpdir(), "parkd-slow-"));
const run = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: dir, env: { PATH: "/usr/bin:/bin", TZ: "UTC" } });
run([BIN, "migrate", "--data-dir", dir]);
const token = run([BIN, "token", "create", "--data-dir", dir, "--name", "probe", "--scope", "admin"])
  .stdout.toString()
  .trim();
const server = Bun.spawn(
  [
    "prlimit",
    `--nofile=${NOFILE}`,
    BIN,
    "serve",
    "--http",
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--data-dir",
    dir,
    ...extra,
  ],
  { cwd: dir, stdout: "ignore", stderr: "ignore", env: { PATH: "/usr/bin:/bin", TZ: "UTC" } },
);
const url = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${url}/healthz`)).ok) break;
  } catch {}
  await Bun.sleep(50);
}

const sockets: Socket[] = [];
let open = 0;
const timer = setInterval(() => {
  for (const s of sockets) if (!s.destroyed && s.writable && !s.connecting) s.write("{");
}, 1000);
for (let i = 0; i < SLOW; i++) {
  const s = connect({ port, host: "127.0.0.1", localAddress: `127.0.0.${2 + (i % ADDRESSES)}` });
  s.on("error", () => {});
  s.on("connect", () => {
    open++;
    s.write("POST /api/v1/actions/tickets HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n");
  });
  s.on("close", () => {
    open--;
  });
  sockets.push(s);
  if (i % 500 === 499) await Bun.sleep(20);
}
await Bun.sleep(2000);
const fds = () => {
  try {
    return require("node:fs").readdirSync(`/proc/${server.pid}/fd`).length as number;
  } catch {
    return -1;
  }
};
const openBefore = open;
const fdsBefore = fds();

let ok = 0;
let failed = 0;
let worst = 0;
for (let i = 0; i < 20; i++) {
  const t0 = performance.now();
  try {
    const res = await fetch(`${url}/api/v1/whoami`, {
      // A new connection each time, as a handheld waking up would open.
      headers: { authorization: `Bearer ${token}`, connection: "close" },
      signal: AbortSignal.timeout(5000),
    });
    if (res.status === 200) ok++;
    else failed++;
    await res.text();
  } catch {
    failed++;
  }
  worst = Math.max(worst, performance.now() - t0);
  await Bun.sleep(500);
}
if (process.env.SHOW_METRICS)
  console.log(
    (
      await (
        await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}`, connection: "close" } })
      ).text()
    )
      .split("\n")
      .filter((l) => l.startsWith("parkd_conn") || l.startsWith("parkd_http_requests_total"))
      .join("\n"),
  );
console.log(
  `slow connections: ${SLOW} attempted, ${openBefore} open before the normal requests (server descriptors ${fdsBefore}), ${open} at the end; normal requests: ${ok} ok, ${failed} failed; worst ${worst.toFixed(0)} ms (server nofile ${NOFILE}${extra.length ? `, ${extra.join(" ")}` : ""})`,
);
clearInterval(timer);
for (const s of sockets) s.destroy();
server.kill("SIGKILL");
await server.exited;
rmSync(dir, { recursive: true, force: true });
process.exit(0);
