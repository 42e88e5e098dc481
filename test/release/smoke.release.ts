/**
 * The release step (./build.sh test, after the other tests; ./build.sh release-test alone): each
 * binary in dist/release is copied alone into an empty folder and used as a technician would:
 * version, migrate, two tokens, serve HTTPS on a free loopback port, a terminal's event, an
 * attendant's plate check, a backup while serving, SIGTERM. The arm64 build runs under
 * qemu-aarch64, the baseline build under qemu-x86_64 on a CPU model without AVX2 (Nehalem).
 * Named *.release.ts so that the main `bun test` pass does not pick it up.
 */
import { describe, expect, test } from "bun:test";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";
import { freePort } from "../support/binary.ts";

const DIR = process.env.PARKD_RELEASE_DIR ?? join(import.meta.dir, "../../dist/release");
const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dir, "../../package.json"), "utf8")) as { version: string }
).version;
const ARM_SYSROOT = "/usr/aarch64-linux-gnu";
const ci = process.env.CI === "true";

function have(cmd: string): boolean {
  const found = Bun.which(cmd) !== null;
  if (!found && ci)
    throw new Error(`${cmd} is missing (./build.sh test installs Debian's qemu-user when run as root)`);
  return found;
}

interface Target {
  target: string;
  /** What runs the binary: nothing, or an emulator with its options. */
  runner: string[];
  available: boolean;
}

const TARGETS: Target[] = [
  { target: "linux-x64", runner: [], available: process.arch === "x64" },
  {
    target: "linux-x64-baseline",
    runner: ["qemu-x86_64", "-cpu", "Nehalem"],
    available: have("qemu-x86_64"),
  },
  {
    target: "linux-arm64",
    runner: ["qemu-aarch64", "-L", ARM_SYSROOT],
    available:
      have("qemu-aarch64") && (existsSync(join(ARM_SYSROOT, "lib")) || (ci ? missing(ARM_SYSROOT) : false)),
  },
];

function missing(what: string): never {
  throw new Error(`${what} is missing (Debian's libc6-arm64-cross, installed by ./build.sh test as root)`);
}

async function run(cmd: string[], cwd: string, stdin?: string) {
  const p = spawn(cmd, {
    cwd,
    env: { PATH: "/usr/bin:/bin", HOME: cwd, TZ: "UTC" },
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
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

describe("the release", () => {
  test("has every binary, both packages, checksums and notes", async () => {
    const files = readdirSync(DIR).sort();
    expect(files).toEqual(
      [
        "RELEASE-NOTES.md",
        "SHA256SUMS",
        `parkd-${VERSION}-linux-arm64`,
        `parkd-${VERSION}-linux-x64`,
        `parkd-${VERSION}-linux-x64-baseline`,
        `parkd_${VERSION}_amd64.deb`,
        `parkd_${VERSION}_arm64.deb`,
      ].sort(),
    );
    const sums = await run(["sha256sum", "--check", "--strict", "SHA256SUMS"], DIR);
    expect(sums.code).toBe(0);
    expect(sums.stdout.trim().split("\n")).toHaveLength(5);
    expect(readFileSync(join(DIR, "RELEASE-NOTES.md"), "utf8")).toStartWith(`# parkd ${VERSION} (`);
    const arm = await run(["dpkg-deb", "--field", `parkd_${VERSION}_arm64.deb`, "Architecture"], DIR);
    expect(arm.stdout.trim()).toBe("arm64");
    const file = await run(["file", "-b", `parkd-${VERSION}-linux-arm64`], DIR);
    if (file.code === 0) expect(file.stdout).toContain("ARM aarch64");
    // Checksums of 450 MB on a busy machine take longer than the default 5 s.
  }, 60_000);

  for (const t of TARGETS)
    test.skipIf(!t.available)(
      `${t.target}${t.runner.length ? ` under ${t.runner.join(" ")}` : ""}: as a technician uses it`,
      async () => {
        const started = performance.now();
        const dir = mkdtempSync(join(tmpdir(), `parkd-release-${t.target}-`));
        const bin = join(dir, "parkd");
        copyFileSync(join(DIR, `parkd-${VERSION}-${t.target}`), bin);
        const parkd = (args: string[], stdin?: string) => run([...t.runner, bin, ...args], dir, stdin);
        try {
          const version = await parkd(["version"]);
          expect(version.stdout).toStartWith(`parkd ${VERSION} (`);
          expect(version.stdout.trim()).toEndWith(`, ${t.target})`);
          expect((await parkd(["migrate"])).code).toBe(0);
          const terminal = (
            await parkd(["token", "create", "--name", "terminal-1", "--scope", "tickets:write"])
          ).stdout.trim();
          const handheld = (
            await parkd(["token", "create", "--name", "handheld-1", "--scope", "permits:read"])
          ).stdout.trim();
          expect(terminal).toStartWith("pk_");

          const port = await freePort();
          const server = spawn([...t.runner, bin, "serve", "--host", "127.0.0.1", "--port", String(port)], {
            cwd: dir,
            // Exactly what a technician types: no variable of the engine's or of ours.
            env: { PATH: "/usr/bin:/bin", HOME: dir, TZ: "UTC" },
            stdin: "ignore",
            stdout: "ignore",
            stderr: "pipe",
          });
          const url = `https://127.0.0.1:${port}`;
          const tls = { rejectUnauthorized: false };
          try {
            const deadline = Date.now() + 120_000;
            for (;;) {
              if (server.exitCode !== null) throw new Error(`serve exited with ${server.exitCode}`);
              try {
                if ((await fetch(`${url}/healthz`, { tls })).ok) break;
              } catch {}
              if (Date.now() > deadline) throw new Error("serve did not answer within 120 s");
              await Bun.sleep(100);
            }
            // Still the process that was started, under the emulator and its CPU model: serve never
            // starts itself again (a restart would leave the emulator for the host's own CPU).
            if (t.runner.length) expect(readlinkSync(`/proc/${server.pid}/exe`)).toEndWith(`/${t.runner[0]}`);
            const sent = await fetch(`${url}/api/v1/actions/tickets`, {
              method: "POST",
              tls,
              headers: {
                Authorization: `Bearer ${terminal}`,
                "Content-Type": "application/json",
                Accept: "application/json",
              },
              body: JSON.stringify({
                eventType: "TicketCreated",
                ticketId: "4711",
                zoneCode: "1234",
                parkingLotId: null,
                startDate: "2026-06-15T10:00:00+02:00",
                endDate: "2099-06-15T12:00:00+02:00",
                licenseNumber: "ABC123",
                ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
              }),
            });
            expect(sent.status).toBe(200);
            expect(await sent.json()).toEqual([]);
            const checked = await fetch(
              `${url}/api/v1/attendants/check-tickets?registration_number=abc-123`,
              {
                tls,
                headers: { Authorization: `Bearer ${handheld}` },
              },
            );
            expect(checked.status).toBe(200);
            expect(JSON.stringify(await checked.json())).toContain("4711");

            const backup = await parkd(["backup", join(dir, "backup.db")]);
            expect(backup.code).toBe(0);
            expect(backup.stderr).toContain("integrity ok");
          } finally {
            server.kill("SIGTERM");
          }
          expect(await server.exited).toBe(0);
          // The log is one JSON object per line, start to stop, on every target (journald and
          // log shippers read it so): no runtime warning in between.
          const logLines = (await new Response(server.stderr).text()).trim().split("\n");
          expect(logLines.length).toBeGreaterThan(1);
          const notJson = logLines.filter((line) => {
            try {
              JSON.parse(line);
              return false;
            } catch {
              return true;
            }
          });
          expect(notJson).toEqual([]);
          console.log(`${t.target}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
      240_000,
    );
});
