/**
 * A data folder of its own and the built binary serving it over HTTPS on 127.0.0.1, for the
 * benches that drive the binary as a site would (feed-load.ts, soak.ts). With BENCH_KIOSK=1 the
 * server runs in an emulated kiosk (one core, 256 MB; bench/kiosk.ts); BENCH_RUNNER runs another
 * architecture's build (BENCH_BIN) under an emulator.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Subprocess, spawn, spawnSync } from "bun";
import { exitText, type Kiosk, type KioskReport, kiosk, RUNNER } from "./kiosk.ts";

export const BIN = resolve(process.env.BENCH_BIN ?? join(import.meta.dir, "../dist/parkd"));
/** The box's self-signed certificate is not checked by the driver. */
export const tls = { rejectUnauthorized: false };

export interface BinaryBox {
  dir: string;
  dataDir: string;
  /** Runs a CLI command on the box's data folder; its stdout, trimmed. */
  cli(...args: string[]): string;
  /**
   * The same without holding up the driver: while the box serves, a synchronous CLI call would
   * stop the driver's own requests, and its pause would read as the server's.
   */
  cliAsync(...args: string[]): Promise<string>;
  /** Starts `serve` (HTTPS) and waits until it answers. */
  serve(extra?: string[]): Promise<{ base: string; server: Subprocess }>;
  /** The emulated kiosk's figures so far, when the server runs in one (BENCH_KIOSK=1). */
  kiosk(): KioskReport | null;
  /** The emulated kiosk's memory.stat now (null outside one). */
  kioskMemory(): Record<string, number> | null;
  /** How the server ended: "exit 0", or the signal that ended it (null while it runs). */
  ended(): string | null;
  /** Stops the server and removes the folder (and the box). */
  close(): Promise<void>;
}

/** BENCH_KIOSK=1 (or only): the server in an emulated kiosk. */
export const KIOSK = ["1", "only"].includes(process.env.BENCH_KIOSK ?? "");

export function binaryBox(name: string): BinaryBox {
  const dir = mkdtempSync(join(tmpdir(), `parkd-${name}-`));
  const dataDir = join(dir, "data");
  let server: Subprocess | undefined;
  let box: Kiosk | null = null;
  const cli = (...args: string[]) => {
    const r = spawnSync([...RUNNER, BIN, ...args, "--data-dir", dataDir]);
    if (r.exitCode !== 0) throw new Error(`parkd ${args.join(" ")}: ${r.stderr}`);
    return r.stdout.toString().trim();
  };
  // While the server runs in an emulated kiosk, a command beside it runs in the same one: on the
  // box, a technician's purge or backup shares serve's one core and its memory.
  const cliAsync = async (...args: string[]) => {
    const cmd = [...RUNNER, BIN, ...args, "--data-dir", dataDir];
    const p = spawn(box ? box.wrap(cmd) : cmd, { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    if (code !== 0) throw new Error(`parkd ${args.join(" ")}: ${err}`);
    return out.trim();
  };
  return {
    dir,
    dataDir,
    cli,
    cliAsync,
    async serve(extra: string[] = []) {
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      // One client address for everything: the per-address limit would measure itself.
      const cmd = [
        ...RUNNER,
        BIN,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--data-dir",
        dataDir,
        "--max-connections-per-address",
        "2000",
        ...extra,
      ];
      box = KIOSK ? kiosk(name) : null;
      // BENCH_SERVER_ENV="NAME=value ..." for the server alone (BUN_JSC_logGC=1: the engine's
      // collections and their pauses), BENCH_SERVER_LOG=FILE for its log.
      const serverEnv = Object.fromEntries(
        (process.env.BENCH_SERVER_ENV ?? "")
          .split(/\s+/)
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
      );
      const log = process.env.BENCH_SERVER_LOG;
      server = spawn(box ? box.wrap(cmd) : cmd, {
        env: { ...process.env, ...serverEnv },
        stdout: "ignore",
        stderr: log ? Bun.file(log) : "ignore",
      });
      const base = `https://127.0.0.1:${port}`;
      // An emulator takes seconds to start.
      const tries = RUNNER.length ? 3_600 : 200;
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`${base}/healthz`, { tls } as RequestInit)).ok) break;
        } catch {}
        if (server.exitCode !== null || server.signalCode !== null)
          throw new Error(`serve ended: ${exitText(server.exitCode, server.signalCode)}`);
        if (i > tries) throw new Error("serve did not start");
        await Bun.sleep(50);
      }
      return { base, server };
    },
    kiosk: () => box?.report() ?? null,
    kioskMemory: () => box?.memoryStat() ?? null,
    ended: () =>
      server && (server.exitCode !== null || server.signalCode !== null)
        ? exitText(server.exitCode, server.signalCode)
        : null,
    async close() {
      server?.kill("SIGTERM");
      await server?.exited;
      box?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
