/**
 * check-tickets by plate through app.handle in a loop, for a CPU profile of the app alone:
 *   bun --cpu-prof-md bench/profile-plate.ts        (needs the bench store: bench/run.sh or bench/handle.ts)
 */
import { join } from "node:path";
import { composeBox } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import { setLogging } from "../src/platform/log.ts";
import { openStore } from "../src/platform/store/db.ts";
import { PLATES, plateOf } from "./plates.ts";

const COUNT = Number(process.env.PROFILE_REQUESTS ?? 200_000);
const store = openStore(join(import.meta.dir, ".work", process.env.PROFILE_STORE ?? "handle-run"));
// The per-credential rate limit is off, as bench.ts runs serve: one token at full speed.
const ctx = createContext(store, { timezone: "Europe/Stockholm", rateLimitPerSecond: 0 });
const box = composeBox(ctx);
const app = box.app;
setLogging(process.env.PROFILE_LOG === "1");
const token = box.credentials.createToken({ name: `profile-${Date.now()}`, scopes: ["permits:read"] }).token;
const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
const cutoff = () => Date.now() - ctx.config.recentHours * 3_600_000;
while (!box.readModel.update(cutoff())) await new Promise((turned) => setImmediate(turned));
const t0 = performance.now();
const c0 = process.cpuUsage();
for (let i = 0; i < COUNT; i++) {
  const plate = plateOf((i * 7919) % PLATES);
  const res = await app.handle(
    new Request(`http://localhost/api/v1/attendants/check-tickets?registration_number=${plate}`, { headers }),
  );
  await res.arrayBuffer();
}
const cpu = process.cpuUsage(c0);
console.log(
  `${((cpu.user + cpu.system) / COUNT).toFixed(2)} µs CPU, ${(((performance.now() - t0) * 1000) / COUNT).toFixed(2)} µs wall per lookup`,
);
box.lookupRecorder.stop();
box.credentials.stop();
store.close();
