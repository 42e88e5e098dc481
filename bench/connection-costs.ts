/**
 * On demand, not part of the tests: what a connection costs the box over HTTPS, for issue 52's
 * before and after. One `parkd serve` on 127.0.0.1 (in the emulated kiosk with BENCH_KIOSK=1:
 * one core, 256 MB), the load on another core:
 *
 * - handshakes a second: 16 clients, each opening a TLS connection, asking /healthz with
 *   `Connection: close` and reading the answer, for 10 s;
 * - memory per idle connection: RSS grown by 2,000 handshaken idle connections (from 50 source
 *   addresses, 40 each), and by 2,000 connections that never send a byte (from 50 more);
 * - what is left of the silent ones after the header deadline (--request-timeout 4: 2 s).
 *
 *   bun bench/connection-costs.ts [BIN]
 *
 * Prints one JSON line. Stops by itself (about 40 s); 127.0.0.0/8 only.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { kiosk, reportText } from "./kiosk.ts";

const BIN = resolve(process.argv[2] ?? "dist/parkd");
const inKiosk = process.env.BENCH_KIOSK === "1";

const port = await new Promise<number>((ok) => {
  const s = createServer();
  s.listen(0, "127.0.0.1", () => {
    const a = s.address();
    s.close(() => ok(typeof a === "object" && a ? a.port : 0));
  });
});
const dir = mkdtempSync(join(tmpdir(), "parkd-conn-"));
const env = { PATH: "/usr/bin:/bin", TZ: "UTC" };
Bun.spawnSync([BIN, "migrate", "--data-dir", dir], { cwd: dir, env });
const box = inKiosk ? kiosk("connections") : null;
const cmd = [
  BIN,
  "serve",
  "--host",
  "127.0.0.1",
  "--port",
  String(port),
  "--data-dir",
  dir,
  "--max-connections",
  "4096",
  "--request-timeout",
  "4",
];
const server = Bun.spawn(box ? box.wrap(cmd) : cmd, { cwd: dir, stdout: "ignore", stderr: "ignore", env });
const rss = () =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const fds = () => readdirSync(`/proc/${server.pid}/fd`).length;

const tls = (localAddress = "127.0.0.1") =>
  new Promise<Socket | null>((ok) => {
    const s = tlsConnect({ port, host: "127.0.0.1", rejectUnauthorized: false, ...{ localAddress } }, () =>
      ok(s),
    );
    s.on("error", () => ok(null));
  });

for (let i = 0; i < 200; i++) {
  const s = await tls();
  if (s) {
    s.destroy();
    break;
  }
  await Bun.sleep(50);
}

/** One handshake and one answer on its own connection. */
const once = () =>
  new Promise<boolean>((ok) => {
    const s = tlsConnect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () =>
      s.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    );
    let got = "";
    s.on("data", (b: Buffer) => {
      got += b.toString("latin1");
    });
    s.on("close", () => ok(got.startsWith("HTTP/1.1 200")));
    s.on("error", () => {});
  });

const started = performance.now();
let handshakes = 0;
let failed = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (performance.now() - started < 10_000) {
      if (await once()) handshakes++;
      else failed++;
    }
  }),
);
const perSecond = handshakes / ((performance.now() - started) / 1000);

await Bun.sleep(500);
const before = rss();
const idle: Socket[] = [];
for (let a = 0; a < 50; a++)
  for (const s of await Promise.all(Array.from({ length: 40 }, () => tls(`127.0.3.${a + 1}`))))
    if (s) {
      s.on("data", () => {});
      idle.push(s);
    }
await Bun.sleep(300);
const withIdle = rss();
const silent: Socket[] = [];
for (let a = 0; a < 50; a++)
  for (let i = 0; i < 40; i++) {
    const s = connect({ port, host: "127.0.0.1", localAddress: `127.0.4.${a + 1}` });
    s.on("error", () => {});
    s.on("data", () => {});
    silent.push(s);
  }
await Bun.sleep(300);
const withSilent = rss();
const fdsWithBoth = fds();
// The header deadline (2 s from accept) and the close after it.
await Bun.sleep(4000);
const silentLeft = silent.filter((s) => !s.destroyed).length;
const idleLeft = idle.filter((s) => !s.destroyed).length;
const fdsAfter = fds();
for (const s of [...idle, ...silent]) s.destroy();
server.kill("SIGTERM");
await server.exited;
console.log(
  JSON.stringify({
    bin: BIN,
    kiosk: inKiosk,
    handshakesPerSecond: Math.round(perSecond),
    failed,
    idleConnections: idle.length,
    kbPerIdleConnection: Math.round(((withIdle - before) * 1024) / Math.max(1, idle.length)),
    kbPerSilentConnection: Math.round(((withSilent - withIdle) * 1024) / silent.length),
    descriptorsWithBoth: fdsWithBoth,
    descriptorsAfterDeadline: fdsAfter,
    silentOpenAfterDeadline: silentLeft,
    idleOpenAfterDeadline: idleLeft,
    ...(box ? { box: reportText(box.report()) } : {}),
  }),
);
box?.close();
rmSync(dir, { recursive: true, force: true });
