/**
 * A control notice as a handheld sends it, against dist/parkd over HTTPS on 127.0.0.1: the notice
 * and three photos of 500 KB each (1600 × 1200, the most the phone sends), one after another as
 * the page sends them, N times. Prints, from the first request to the third photo's answer, the
 * median and p95 "tap to stored" time on this machine; the server's CPU per notice; and what each
 * notice costs the data folder (the store, and photos/). With BENCH_KIOSK=1 the server runs in
 * the emulated kiosk (bench/kiosk.ts). Run on demand, not in CI.
 *
 *   bun bench/notices.ts [N, default 40]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { jpegHead } from "../test/support/photos.ts";
import { binaryBox, KIOSK, tls } from "./binary-box.ts";

const N = Number(process.argv[2] ?? 40);
const PHOTOS = 3;
const PHOTO_BYTES = 500 * 1024;

const box = binaryBox("notices");
box.cli("migrate");
const admin = box.cli("token", "create", "--name", "console", "--scope", "admin");
const handheld = box.cli(
  "token",
  "create",
  "--name",
  "handheld-1",
  "--scope",
  "permits:read",
  "--scope",
  "notices:write",
);
// The store's size before and after, each with its WAL folded in (the CLI and a stopped server
// leave none), so the figure is the rows' pages and not the WAL's.
const before = folderBytes();
const { base, server } = await box.serve();

const send = async (token: string, path: string, body: BodyInit, type: string) => {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body,
    tls,
  });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${text}`);
  return text;
};

/** Bytes in the data folder: the store (with its WAL) and the photos, apart. */
function folderBytes(): { store: number; photos: number } {
  let store = 0;
  for (const f of readdirSync(box.dataDir))
    if (f.startsWith("parkd.db")) store += statSync(join(box.dataDir, f)).size;
  let photos = 0;
  const dir = join(box.dataDir, "photos");
  try {
    for (const f of readdirSync(dir)) photos += statSync(join(dir, f)).size;
  } catch {}
  return { store, photos };
}

/** The server's CPU time so far, in ms (utime + stime from /proc). */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

await send(
  admin,
  "/api/v1/notice-reasons",
  JSON.stringify({ code: "no-permit", title: "No valid permit", amount: 50000 }),
  "application/json",
);
// Each photo differs (they are kept by their hash): one byte of the filler marks it.
const photo = (n: number, k: number) => {
  const p = jpegHead(1600, 1200, PHOTO_BYTES);
  p[100] = n & 0x7f;
  p[101] = (n >> 7) & 0x7f;
  p[102] = k;
  return p as Uint8Array<ArrayBuffer>;
};

const cpuBefore = serverCpuMs();
const times: number[] = [];
for (let n = 0; n < N; n++) {
  const id = `bench-notice-${n}`;
  const started = performance.now();
  await send(
    handheld,
    "/api/v1/attendants/notices",
    JSON.stringify({
      id,
      registration_number: `ABC${String(n).padStart(3, "0")}`,
      zone: 1002,
      verdict: "none",
      reason: "no-permit",
      note: "valves 2 and 7",
      observed_at: new Date().toISOString(),
    }),
    "application/json",
  );
  for (let k = 0; k < PHOTOS; k++)
    await send(handheld, `/api/v1/attendants/notices/${id}/photos`, photo(n, k), "image/jpeg");
  times.push(performance.now() - started);
}
const cpu = serverCpuMs() - cpuBefore;
server.kill("SIGTERM");
await server.exited;
const after = folderBytes();
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
console.log(
  `${N} notices with ${PHOTOS} photos of ${PHOTO_BYTES / 1024} KB each over HTTPS${KIOSK ? " (server in the emulated kiosk)" : ""}:`,
);
console.log(
  `tap to stored (notice + ${PHOTOS} photos, one after another): median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, slowest ${times[times.length - 1]!.toFixed(0)} ms`,
);
console.log(`server CPU per notice: ${(cpu / N).toFixed(1)} ms`);
console.log(
  `data folder per notice: store ${((after.store - before.store) / N / 1024).toFixed(1)} KB, photos ${((after.photos - before.photos) / N / 1024).toFixed(0)} KB`,
);
await box.close();
