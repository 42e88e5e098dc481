/**
 * doctor's table of faults on the built binary: each fault made on a real box, named by doctor
 * with its condition and the fix conditions.ts gives it, and serve doing what that condition says
 * (refusing to start, or starting and repairing it). The office's faults are in
 * doctor-office.test.ts and central-tls.test.ts, a full disk in fault.test.ts.
 */

import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import {
  closeSync,
  copyFileSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type ConditionId, fixFor } from "../../src/modules/operations/conditions.ts";
import { type Box, boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();

interface Finding {
  check: string;
  level: string;
  summary: string;
  fix?: string;
  condition?: string;
}

/** A second key and a certificate of its own, from openssl, in `dir`. */
function otherPair(dir: string): { cert: string; key: string } {
  const cert = join(dir, "other-cert.pem");
  const key = join(dir, "other-key.pem");
  const r = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "30",
      "-subj",
      "/CN=localhost",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  if (r.exitCode !== 0) throw new Error(`openssl: ${r.stderr}`);
  return { cert, key };
}

/** A box that has served once (its local CA and certificate made), then stopped. */
async function servedOnce(): Promise<Box> {
  const box = newBox();
  await box.token("terminal-1", "tickets:write");
  const s = await box.serve([]);
  expect(await s.stop("SIGTERM")).toBe(0);
  return box;
}

async function doctor(box: Box, args: string[] = []): Promise<{ code: number; findings: Finding[] }> {
  const r = await box.run(["doctor", "--json", "--port", "0", ...args]);
  return { code: r.code, findings: (JSON.parse(r.stdout) as { findings: Finding[] }).findings };
}

const tls = (box: Box, name: string) => join(box.dataDir, "tls", name);

interface Fault {
  name: string;
  condition: ConditionId;
  /** Makes the fault; returns extra flags for doctor and serve. */
  make(box: Box): string[] | undefined;
  /** What serve does: exit 1 with these words, or start (and repair it). */
  serve: { refuses: string } | "starts";
  fixPlace?: (box: Box) => { dataDir?: string; file?: string };
}

const faults: Fault[] = [
  {
    name: "tls/ca-key.pem missing",
    condition: "tls-ca-half-missing",
    make: (box) => void rmSync(tls(box, "ca-key.pem")),
    serve: { refuses: "ca-key.pem is missing" },
    fixPlace: (box) => ({ dataDir: box.dataDir, file: tls(box, "ca-key.pem") }),
  },
  {
    name: "tls/ca.pem missing",
    condition: "tls-ca-half-missing",
    make: (box) => void rmSync(tls(box, "ca.pem")),
    serve: { refuses: "ca.pem is missing" },
    fixPlace: (box) => ({ dataDir: box.dataDir, file: tls(box, "ca.pem") }),
  },
  {
    name: "the local CA's key is another key",
    condition: "tls-ca-unusable",
    make: (box) => void copyFileSync(otherPair(box.dir).key, tls(box, "ca-key.pem")),
    serve: { refuses: "does not belong to the certificate" },
    fixPlace: (box) => ({ dataDir: box.dataDir }),
  },
  {
    name: "the served certificate is not PEM",
    condition: "tls-unreadable",
    make: (box) => void writeFileSync(tls(box, "cert.pem"), "not a certificate\n"),
    serve: { refuses: "is not a PEM certificate" },
    fixPlace: (box) => ({ file: tls(box, "cert.pem") }),
  },
  {
    name: "--tls-cert with a key that is not its own",
    condition: "tls-pair-mismatch",
    make: (box) => {
      const a = otherPair(box.dir);
      const b = otherPair(join(box.dir, "data"));
      return ["--tls-cert", a.cert, "--tls-key", b.key];
    },
    serve: { refuses: "does not belong to the certificate" },
    fixPlace: (box) => ({ dataDir: box.dataDir, file: join(box.dir, "other-cert.pem") }),
  },
  {
    name: "a certificate/key mismatch in the data folder, no local CA",
    condition: "tls-pair-mismatch",
    make: (box) => {
      for (const f of ["ca.pem", "ca-key.pem"]) rmSync(tls(box, f));
      const a = otherPair(box.dir);
      copyFileSync(a.cert, tls(box, "cert.pem"));
      return undefined;
    },
    serve: { refuses: "does not belong to the certificate" },
    fixPlace: (box) => ({ dataDir: box.dataDir, file: tls(box, "cert.pem") }),
  },
  {
    name: "the local CA's certificate beside a key that is not its own",
    condition: "tls-local-ca-renews",
    make: (box) => void copyFileSync(otherPair(box.dir).key, tls(box, "key.pem")),
    serve: "starts",
    fixPlace: (box) => ({ dataDir: box.dataDir }),
  },
];

describe("doctor's table of faults", () => {
  test.each(faults)(
    "$name: $condition",
    async (fault) => {
      const box = await servedOnce();
      const flags = fault.make(box) ?? [];
      const before = await doctor(box, flags);
      const found = before.findings.filter((f) => f.condition === fault.condition);
      expect(found).toHaveLength(1);
      expect(found[0]!.fix).toBe(fixFor(fault.condition, fault.fixPlace?.(box) ?? {}));
      if (fault.serve === "starts") {
        expect(found[0]!.level).toBe("warn");
        expect(found[0]!.summary).toContain("serve issues a new certificate from the box's local CA");
        const s = await box.serve(flags);
        expect(await s.stop("SIGTERM")).toBe(0);
        const after = await doctor(box, flags);
        expect(after.findings.filter((f) => f.condition)).toEqual([]);
        expect(after.code).toBe(0);
      } else {
        expect(found[0]!.level).toBe("fail");
        expect(found[0]!.summary).toContain("serve refuses to start");
        expect(before.code).toBe(1);
        const s = await box.serve(flags, { waitReady: false });
        expect(await s.exited).toBe(1);
        expect(s.stderr()).toContain(fault.serve.refuses);
      }
    },
    30_000,
  );

  test("a damaged store: named with restore's real effect, and no false word on terminals", async () => {
    const box = newBox();
    await box.token("terminal-1", "tickets:write");
    // Fill a few pages, then overwrite the middle of the file: quick_check reports it.
    const db = new Database(join(box.dataDir, "parkd.db"));
    db.run("CREATE TABLE filler (x TEXT)");
    for (let i = 0; i < 200; i++) db.run("INSERT INTO filler VALUES (?)", ["x".repeat(500)]);
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close(false);
    const file = join(box.dataDir, "parkd.db");
    const size = statSync(file).size;
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const { code, findings } = await doctor(box, ["--http"]);
    expect(code).toBe(1);
    const damaged = findings.filter((f) => f.condition === "store-damaged");
    expect(damaged).toHaveLength(1);
    expect(damaged[0]!.fix).toBe(fixFor("store-damaged", { dataDir: box.dataDir }));
    expect(damaged[0]!.fix).toContain("what was written since that backup is lost");
    const terminals = findings.find((f) => f.check === "terminals")!;
    expect(terminals.summary).not.toContain("no credential with tickets:write");
    void readFileSync;
  }, 30_000);

  test("a store a newer release wrote: serve refuses, doctor names how to go back", async () => {
    const box = newBox();
    await box.migrate();
    const db = new Database(join(box.dataDir, "parkd.db"));
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('later', 99999999999999)");
    db.close(false);
    const { findings } = await doctor(box, ["--http"]);
    const newer = findings.filter((f) => f.condition === "store-newer-schema");
    expect(newer).toHaveLength(1);
    expect(newer[0]!.fix).toContain("backups/");
    const s = await box.serve(["--http"], { waitReady: false });
    expect(await s.exited).toBe(1);
  }, 30_000);
});
