import { afterAll } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawn, spawnSync } from "bun";

const ROOT = resolve(import.meta.dir, "../..");

/** The built executable; built once here when the test command did not build it already. */
export function binaryPath(): string {
  const bin = process.env.PARKD_BIN ?? join(ROOT, "dist/parkd");
  if (!existsSync(bin)) {
    const r = spawnSync(["./build.sh"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    if (r.exitCode !== 0) throw new Error("./build.sh failed");
  }
  return bin;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Server {
  url: string;
  port: number;
  pid: number;
  stderr(): string;
  stdout(): string;
  /** Sends the signal and waits for the exit code. */
  stop(signal?: "SIGTERM" | "SIGINT" | "SIGKILL"): Promise<number>;
  exited: Promise<number>;
}

/**
 * A copy of the binary alone in an empty temporary folder, driven as an operator would:
 * no source tree, no node_modules, no db/ folder beside it.
 */
export class Box {
  readonly dir: string;
  readonly bin: string;
  readonly dataDir: string;
  private readonly servers: Server[] = [];

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), "parkd-e2e-"));
    this.bin = join(this.dir, "parkd");
    copyFileSync(binaryPath(), this.bin);
    this.dataDir = join(this.dir, "data");
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    // Only what a bare machine would have: no PARKD_* leaking in from the developer's shell.
    // The box's settings file is its own (none until a test writes it), never this machine's.
    return {
      PATH: "/usr/bin:/bin",
      HOME: this.dir,
      TZ: "UTC",
      PARKD_ENV_FILE: join(this.dir, "parkd.env"),
      ...extra,
    };
  }

  async run(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
    const p = spawn([this.bin, ...args], {
      cwd: this.dir,
      env: this.env(opts.env),
      stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    return { code, stdout, stderr };
  }

  /** Makes the store as a technician would before the first token (only serve, migrate and restore create one). */
  async migrate(): Promise<void> {
    const r = await this.run(["migrate"]);
    if (r.code !== 0) throw new Error(`migrate failed: ${r.stderr}`);
  }

  async token(name: string, ...scopes: string[]): Promise<string> {
    if (!existsSync(join(this.dataDir, "parkd.db"))) await this.migrate();
    const r = await this.run(["token", "create", "--name", name, ...scopes.flatMap((s) => ["--scope", s])]);
    if (r.code !== 0) throw new Error(`token create failed: ${r.stderr}`);
    return r.stdout.trim();
  }

  /** Starts `parkd serve` on a free loopback port; waits until it answers /healthz and has logged its summary. */
  async serve(
    args: string[] = ["--http"],
    opts: { env?: Record<string, string>; waitReady?: boolean; port?: number; descriptorLimit?: number } = {},
  ): Promise<Server> {
    // A given port: a restart on the address clients already use.
    const port = opts.port ?? (await freePort());
    const tls = !args.includes("--http");
    // A lowered descriptor limit, as a small box's unit might set (prlimit, from util-linux).
    const limit = opts.descriptorLimit ? ["prlimit", `--nofile=${opts.descriptorLimit}`, "--"] : [];
    const p = spawn([...limit, this.bin, "serve", "--host", "127.0.0.1", "--port", String(port), ...args], {
      cwd: this.dir,
      env: this.env(opts.env),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let out = "";
    let err = "";
    const pump = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
      const dec = new TextDecoder();
      for await (const chunk of stream) add(dec.decode(chunk, { stream: true }));
    };
    void pump(p.stdout, (s) => {
      out += s;
    });
    void pump(p.stderr, (s) => {
      err += s;
    });
    const url = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
    const server: Server = {
      url,
      port,
      pid: p.pid,
      stderr: () => err,
      stdout: () => out,
      exited: p.exited,
      async stop(signal = "SIGTERM") {
        if (p.exitCode === null && p.signalCode === null) p.kill(signal);
        return p.exited;
      },
    };
    this.servers.push(server);
    if (opts.waitReady !== false) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        if (p.exitCode !== null) throw new Error(`serve exited with ${p.exitCode}: ${err}`);
        try {
          const r = await fetch(`${url}/healthz`, { tls: { rejectUnauthorized: false } });
          if (r.ok) break;
        } catch {}
        if (Date.now() > deadline) throw new Error(`serve did not answer in 10 s: ${err}`);
        await Bun.sleep(25);
      }
      // The store's summary comes once the tickets are counted on the store's thread, just after
      // the first answers: tests read the start-up lines whole.
      while (!err.includes(", schema version ") && p.exitCode === null && Date.now() < deadline)
        await Bun.sleep(5);
    }
    return server;
  }

  certificatePem(): string {
    return readFileSync(join(this.dataDir, "tls", "cert.pem"), "utf8");
  }

  /** Stops every server this box started (by its own pid) and removes the folder. */
  async cleanup(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop("SIGKILL")));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Boxes for one test file, all cleaned up after it: `const newBox = boxesForFile();`. */
export function boxesForFile(): () => Box {
  const boxes: Box[] = [];
  afterAll(async () => {
    await Promise.all(boxes.map((b) => b.cleanup()));
  });
  return () => {
    const b = new Box();
    boxes.push(b);
    return b;
  };
}
