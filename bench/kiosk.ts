/**
 * An emulated kiosk: the kernel's control groups (v1 memory and cpuset hierarchies) hold a
 * server to one core and a memory limit, as systemd's `AllowedCPUs=` and `MemoryMax=` do for
 * the unit on a small box. The load generator stays outside, on another core. Needs root and
 * the v1 `memory` and `cpuset` controllers mounted under /sys/fs/cgroup (cgroup v2 beside them
 * is fine; the engine reads the v1 limit of its own group either way).
 *
 *   BENCH_KIOSK=0|1|only       the bench: plain only, plain then the box (default when it can), the box only
 *   BENCH_KIOSK_MEMORY=256M    the limit (K, M, G suffixes; bytes without)
 *   BENCH_KIOSK_CPU=0          the box's core; the load runs on BENCH_LOAD_CPU (default 1)
 *   BENCH_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"   what runs BENCH_BIN (another architecture's build)
 *
 * Each box is a group of its own below the groups this process is in (so it never leaves a limit
 * its caller has), removed when closed.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = "/sys/fs/cgroup";
export const KIOSK_CPU = process.env.BENCH_KIOSK_CPU ?? "0";
export const LOAD_CPU = process.env.BENCH_LOAD_CPU ?? "1";

/** What runs the binary: nothing, or an emulator with its options (BENCH_RUNNER). */
export const RUNNER = (process.env.BENCH_RUNNER ?? "").split(/\s+/).filter(Boolean);

export function parseBytes(text: string): number {
  const m = /^(\d+)([KMG]?)$/i.exec(text.trim());
  if (!m) throw new Error(`BENCH_KIOSK_MEMORY: "${text}" is not a size (256M, 1G, or bytes)`);
  const unit = { "": 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 }[m[2]!.toUpperCase() as "" | "K" | "M" | "G"];
  return Number(m[1]) * unit;
}

export const KIOSK_MEMORY = parseBytes(process.env.BENCH_KIOSK_MEMORY ?? "256M");

/** The group this process is in, in a v1 hierarchy ("memory", "cpuset"), from /proc/self/cgroup. */
function ownGroup(controller: string): string | null {
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, path] = line.split(":");
    if (controllers?.split(",").includes(controller)) return path ?? "/";
  }
  return null;
}

/** Why no box can be made here, or null when it can. */
export function kioskUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "not root";
  for (const c of ["memory", "cpuset"]) {
    const own = ownGroup(c);
    if (own === null || !existsSync(join(ROOT, c, own, "cgroup.procs")))
      return `no v1 ${c} hierarchy at ${join(ROOT, c)}`;
  }
  return null;
}

export interface KioskReport {
  /** The limit, bytes. */
  limit: number;
  /** The group's highest charge (anonymous memory and the page cache it brought in), bytes. */
  maxUsage: number;
  /** Times the charge reached the limit (the kernel then reclaims, page cache first). */
  failcnt: number;
  /** Processes the kernel killed for the group's memory (memory.oom_control's oom_kill). */
  oomKills: number;
}

export interface Kiosk {
  name: string;
  /** `cmd` to spawn so that it runs in the box from its first instruction. */
  wrap(cmd: string[]): string[];
  report(): KioskReport;
  /** The group's memory.stat now (total_cache, total_rss, total_dirty, total_pgmajfault, ...). */
  memoryStat(): Record<string, number>;
  /** Forgets the highest charge so far (a phase of its own). */
  resetPeak(): void;
  /** Removes the groups; the processes in them must have ended. */
  close(): void;
}

let made = 0;

export function kiosk(label: string, memory = KIOSK_MEMORY, cpu = KIOSK_CPU): Kiosk {
  const why = kioskUnavailable();
  if (why) throw new Error(`no emulated kiosk here: ${why}`);
  const name = `parkd-kiosk-${process.pid}-${++made}-${label}`;
  const memDir = join(ROOT, "memory", ownGroup("memory")!, name);
  const cpuDir = join(ROOT, "cpuset", ownGroup("cpuset")!, name);
  mkdirSync(memDir);
  mkdirSync(cpuDir);
  // A cpuset group takes no process until it has cores and memory nodes.
  writeFileSync(join(cpuDir, "cpuset.cpus"), cpu);
  writeFileSync(join(cpuDir, "cpuset.mems"), readFileSync(join(cpuDir, "..", "cpuset.mems"), "utf8").trim());
  writeFileSync(join(memDir, "memory.limit_in_bytes"), String(memory));
  // No swap as on the boxes (and this machine has none): memory and swap together at the limit.
  try {
    writeFileSync(join(memDir, "memory.memsw.limit_in_bytes"), String(memory));
  } catch {}
  const read = (file: string) => readFileSync(join(memDir, file), "utf8");
  return {
    name,
    wrap: (cmd) => [
      "sh",
      "-c",
      'echo $$ > "$1" && echo $$ > "$2" && shift 2 && exec "$@"',
      "kiosk",
      join(memDir, "cgroup.procs"),
      join(cpuDir, "cgroup.procs"),
      ...cmd,
    ],
    report: () => ({
      limit: memory,
      maxUsage: Number(read("memory.max_usage_in_bytes")),
      failcnt: Number(read("memory.failcnt")),
      oomKills: Number(/^oom_kill (\d+)/m.exec(read("memory.oom_control"))?.[1] ?? 0),
    }),
    memoryStat: () =>
      Object.fromEntries(
        read("memory.stat")
          .trim()
          .split("\n")
          .map((line) => {
            const [key, value] = line.split(" ");
            return [key!, Number(value)];
          }),
      ),
    resetPeak: () => writeFileSync(join(memDir, "memory.max_usage_in_bytes"), "0"),
    close: () => {
      for (const dir of [memDir, cpuDir])
        for (let i = 0; ; i++) {
          try {
            rmdirSync(dir);
            break;
          } catch (e) {
            // A process that just exited may still be counted for a moment.
            if (i > 50) throw e;
            Bun.sleepSync(20);
          }
        }
    },
  };
}

export function reportText(r: KioskReport): string {
  const mb = (n: number) => (n / 2 ** 20).toFixed(0);
  return `box ${mb(r.limit)} MB: highest charge ${mb(r.maxUsage)} MB, limit reached ${r.failcnt} times, OOM kills ${r.oomKills}`;
}

/** How a process ended, for a report: "exit 0", or the signal that ended it ("SIGKILL": the OOM killer's). */
export function exitText(code: number | null, signal: string | number | null | undefined): string {
  return signal ? `killed by ${signal}` : `exit ${code}`;
}
