import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, spawnSync } from "bun";
import { boxesForFile, freePort } from "../support/binary.ts";

/**
 * Issue 11 on the built binary: the CLI never makes a store where it should not (19), its flags
 * refuse what makes no sense (20), a data folder's real trouble is named (16), and a store that
 * was write-protected at start recovers without a restart (17).
 */
const newBox = boxesForFile();
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync(["sh", "-c", "command -v setpriv"]).exitCode === 0;

describe("commands other than serve, migrate and restore never create a store (19)", () => {
  const commands = [
    ["token", "create", "--name", "t1", "--scope", "admin"],
    ["token", "list"],
    ["token", "revoke", "t1"],
    ["user", "list"],
    ["user", "delete", "u1"],
    ["lots", "export"],
    ["purge"],
  ];
  for (const args of commands)
    test(`${args.slice(0, 2).join(" ")} on a folder without a store: exit 1, the absolute folder named`, async () => {
      const box = newBox();
      const r = await box.run([...args, "--data-dir", "wrong-folder"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(join(box.dir, "wrong-folder"));
      expect(r.stderr).toContain("parkd migrate");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(join(box.dir, "wrong-folder"))).toBe(false);
    });

  test("user create and lots import refuse too; after migrate they work", async () => {
    const box = newBox();
    const user = await box.run(["user", "create", "--name", "u1", "--scope", "admin", "--password-stdin"], {
      stdin: "a long enough password\n",
    });
    expect(user.code).toBe(1);
    const file = join(box.dir, "lots.json");
    writeFileSync(file, JSON.stringify({ data: [] }));
    expect((await box.run(["lots", "import", file])).code).toBe(1);
    expect(existsSync(box.dataDir)).toBe(false);
    expect((await box.run(["migrate"])).code).toBe(0);
    expect((await box.run(["token", "create", "--name", "t1", "--scope", "admin"])).code).toBe(0);
    expect((await box.run(["lots", "import", file])).code).toBe(0);
  });
});

describe("flags that make no sense are refused (20)", () => {
  test("--http with --tls-cert/--tls-key is a usage error", async () => {
    const box = newBox();
    const r = await box.run(["serve", "--http", "--port", "0", "--tls-cert", "c.pem", "--tls-key", "k.pem"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--http");
    const env = await box.run(["serve", "--http", "--port", "0"], { env: { PARKD_TLS_CERT: "c.pem" } });
    expect(env.code).toBe(2);
  });

  test("--expires-in 0d (a dead token) is refused, and nothing is stored", async () => {
    const box = newBox();
    await box.migrate();
    for (const d of ["0d", "0s", "0w"]) {
      const r = await box.run(["token", "create", "--name", "dead", "--scope", "admin", "--expires-in", d]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("zero");
    }
    expect(JSON.parse((await box.run(["token", "list", "--json"])).stdout)).toEqual([]);
  });

  test("an expired token's name can be used again; a live one's cannot", async () => {
    const box = newBox();
    await box.migrate();
    const create = () =>
      box.run(["token", "create", "--name", "kiosk", "--scope", "admin", "--expires-in", "1s"]);
    expect((await create()).code).toBe(0);
    const taken = await create();
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("already exists");
    await Bun.sleep(1100);
    const again = await create();
    expect(again.code).toBe(0);
    const list = JSON.parse((await box.run(["token", "list", "--json"])).stdout) as {
      name: string;
      revoked_at: string | null;
      expires_at: string;
    }[];
    expect(list).toHaveLength(2);
    expect(list[0]!.revoked_at).toBe(list[0]!.expires_at);
    expect(list[1]!.revoked_at).toBeNull();
    expect((await box.run(["token", "list"])).stdout).toMatch(/kiosk .*expired\n.*kiosk .*active\n/s);
  });

  test("--metrics-token-file keeps the token out of the process list", async () => {
    const box = newBox();
    const file = join(box.dir, "metrics-token");
    writeFileSync(file, "scrape-0123456789abcdef\n", { mode: 0o600 });
    const server = await box.serve(["--http", "--metrics-token-file", file]);
    const ok = await fetch(`${server.url}/metrics`, {
      headers: { authorization: "Bearer scrape-0123456789abcdef" },
    });
    expect(ok.status).toBe(200);
    const cmdline = await Bun.file(`/proc/${server.pid}/cmdline`).text();
    expect(cmdline).not.toContain("scrape-0123456789abcdef");
    expect(await server.stop("SIGTERM")).toBe(0);
    const both = await box.run([
      "serve",
      "--http",
      "--metrics-token-file",
      file,
      "--metrics-token",
      "x".repeat(20),
    ]);
    expect(both.code).toBe(2);
    const missing = await box.run(["serve", "--http", "--metrics-token-file", join(box.dir, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--metrics-token-file");
  });
});

function mountTmpfs(dir: string, size: string, ro = false): void {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size}${ro ? ",ro" : ""}`, "tmpfs", dir], {
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`mount failed: ${r.stderr}`);
}

describe("a data folder's own trouble is named as such (16)", () => {
  test.skipIf(!isRoot)("read-only and full folders: the reason, never 'already running'", async () => {
    const box = newBox();
    const ro = join(box.dir, "ro");
    const full = join(box.dir, "full");
    mountTmpfs(ro, "1m", true);
    mountTmpfs(full, "64k");
    try {
      const r1 = await box.run(["serve", "--http", "--port", "0", "--data-dir", ro]);
      expect(r1.code).toBe(1);
      expect(r1.stderr).toContain("read-only");
      expect(r1.stderr).not.toContain("already running");
      writeFileSync(join(full, "filler"), Buffer.alloc(60 * 1024));
      spawnSync(["sh", "-c", `cat /dev/zero > ${join(full, "rest")} 2>/dev/null`]);
      const r2 = await box.run(["serve", "--http", "--port", "0", "--data-dir", full]);
      expect(r2.code).toBe(1);
      expect(r2.stderr).toContain("full");
      expect(r2.stderr).not.toContain("already running");
      const r3 = await box.run(["migrate", "--data-dir", ro]);
      expect(r3.code).toBe(1);
      expect(r3.stderr).toContain("read-only");
      const r4 = await box.run(["migrate", "--data-dir", full]);
      expect(r4.code).toBe(1);
      expect(r4.stderr).toContain("full");
    } finally {
      spawnSync(["umount", "-l", ro]);
      spawnSync(["umount", "-l", full]);
    }
  });
});

describe("a store write-protected at start recovers without a restart (17)", () => {
  // Root writes through any permission, so serve runs as nobody, as it would under systemd.
  test.skipIf(!isRoot || !hasSetpriv)(
    "writes 503 while the file is read-only, 200 again once it is writable; SIGTERM exits 0",
    async () => {
      const box = newBox();
      await box.migrate();
      const token = await box.token("terminal", "tickets:write");
      chmodSync(box.dir, 0o755);
      for (const p of [box.dir, box.dataDir, join(box.dataDir, "parkd.db"), box.bin])
        chownSync(p, 65534, 65534);
      const store = join(box.dataDir, "parkd.db");
      chmodSync(store, 0o444);
      const port = await freePort();
      const p = spawn(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", box.bin, "serve", "--http"].concat([
          "--host",
          "127.0.0.1",
          "--port",
          String(port),
        ]),
        { cwd: box.dir, env: box.env(), stdout: "pipe", stderr: "pipe" },
      );
      const err = new Response(p.stderr).text();
      const out = new Response(p.stdout).text();
      try {
        const url = `http://127.0.0.1:${port}`;
        for (let i = 0; i < 100; i++) {
          if ((await fetch(`${url}/healthz`).catch(() => null))?.ok) break;
          await Bun.sleep(50);
        }
        let n = 0;
        const post = () =>
          fetch(`${url}/api/v1/actions/tickets`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({
              eventType: "TicketCreated",
              ticketId: `ro-${++n}`,
              zoneCode: 1,
              startDate: "2026-06-15T10:00:00Z",
              licenseNumber: "ABC123",
              ticketCost: {},
            }),
          });
        expect((await post()).status).toBe(503);
        expect((await fetch(`${url}/readyz`)).status).toBe(503);
        // Long enough for the last-used flush (5 s) to meet the read-only store.
        await Bun.sleep(5500);
        chmodSync(store, 0o644);
        let status = 0;
        const deadline = Date.now() + 10_000;
        while (status !== 200 && Date.now() < deadline) {
          status = (await post()).status;
          if (status !== 200) await Bun.sleep(250);
        }
        expect(status).toBe(200);
        expect((await fetch(`${url}/readyz`)).status).toBe(200);
        p.kill("SIGTERM");
        expect(await p.exited).toBe(0);
        const stderr = await err;
        expect(stderr).toContain("write-protected");
        // No raw stack: problems are single JSON lines; events go to stderr, requests to stdout.
        expect(stderr).not.toMatch(/^\s+at /m);
        expect(stderr).toContain('"msg":"store writable again"');
        // Request lines are off by default, but every 5xx gets one, saying why.
        expect(await out).toMatch(/"status":503,[^\n]*"reason":"store-unavailable/);
      } finally {
        if (p.exitCode === null) p.kill("SIGKILL");
      }
    },
    30_000,
  );
});
