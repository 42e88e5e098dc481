import { describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { totalmem } from "node:os";
import { join } from "node:path";
import { createSelfSigned } from "../../src/platform/http/x509.ts";
import { boxesForFile } from "../support/binary.ts";
import { fetchTrusting } from "../support/trusted-client.ts";

const newBox = boxesForFile();

describe("the binary from an empty folder", () => {
  test("help, version and unknown commands", async () => {
    const box = newBox();
    const help = await box.run(["--help"]);
    expect(help.code).toBe(0);
    for (const c of ["serve", "token", "user", "migrate", "version"]) expect(help.stdout).toContain(c);
    const serveHelp = await box.run(["serve", "--help"]);
    expect(serveHelp.stdout).toContain("PARKD_DATA_DIR");
    const version = await box.run(["version"]);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^parkd \d+\.\d+\.\d+ \(commit \S+, schema \d+/);
    const bad = await box.run(["frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown command");
  });

  test("migrate creates the store; token create prints the token alone", async () => {
    const box = newBox();
    expect((await box.run(["migrate"])).code).toBe(0);
    const r = await box.run([
      "token",
      "create",
      "--name",
      "handheld-1",
      "--scope",
      "permits:read",
      "--expires-in",
      "90d",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pk_[A-Za-z0-9_-]{43}\n$/);
    const list = await box.run(["token", "list", "--json"]);
    const tokens = JSON.parse(list.stdout);
    expect(tokens[0].name).toBe("handheld-1");
    expect(list.stdout).not.toContain(r.stdout.trim());
    const bad = await box.run(["token", "create", "--name", "x", "--scope", "root"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("unknown scope");
  });

  test("env vars set flags", async () => {
    const box = newBox();
    expect((await box.run(["migrate"], { env: { PARKD_DATA_DIR: "elsewhere" } })).code).toBe(0);
    const r = await box.run(["token", "create", "--name", "e", "--scope", "admin"], {
      env: { PARKD_DATA_DIR: "elsewhere" },
    });
    expect(r.code).toBe(0);
    const list = await box.run(["token", "list", "--json", "--data-dir", "elsewhere"]);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });

  test("user create reads the password from stdin only", async () => {
    const box = newBox();
    await box.migrate();
    const noStdin = await box.run(["user", "create", "--name", "t1", "--scope", "tickets:write"]);
    expect(noStdin.code).toBe(2);
    const ok = await box.run(
      ["user", "create", "--name", "t1", "--scope", "tickets:write", "--password-stdin"],
      {
        stdin: "a long enough password\n",
      },
    );
    expect(ok.code).toBe(0);
    const list = await box.run(["user", "list", "--json"]);
    expect(JSON.parse(list.stdout)[0].name).toBe("t1");
    expect(list.stdout).not.toContain("password");
    expect((await box.run(["user", "delete", "t1"])).code).toBe(0);
  });
});

describe("serve", () => {
  test("HTTP: a token created and revoked while it runs counts within a second; SIGTERM exits 0", async () => {
    const box = newBox();
    const server = await box.serve(["--http", "--log-requests"]);
    const token = await box.token("live", "permits:read");
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const auth = { authorization: `Bearer ${token}` };
    const me = await fetch(`${server.url}/api/v1/whoami`, { headers: auth });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ kind: "token", name: "live", scopes: ["permits:read"] });
    expect((await box.run(["token", "revoke", "live"])).code).toBe(0);
    const deadline = Date.now() + 1000;
    let after = await fetch(`${server.url}/api/v1/whoami`, { headers: auth });
    while (after.status === 200 && Date.now() < deadline) {
      await Bun.sleep(50);
      after = await fetch(`${server.url}/api/v1/whoami`, { headers: auth });
    }
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toBe('Bearer realm="parking", Basic realm="parking"');
    const nf = await fetch(`${server.url}/api/v1/nothing`, { headers: { authorization: `Bearer ${token}` } });
    expect(nf.status).toBe(404);
    expect(nf.headers.get("content-type")).toStartWith("application/problem+json");
    expect(nf.headers.get("x-request-id")).toBeTruthy();
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.stderr()).toContain("stopped");
    // One JSON line per request, no token in it.
    const lines = server
      .stdout()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.route === "/readyz" && l.status === 200)).toBe(true);
    expect(server.stdout()).not.toContain(token);
  });

  test("serve names the memory its engine sizes for, and an engine size an operator set", async () => {
    const summary = (stderr: string) =>
      stderr
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .find((l) => "memoryLimitBytes" in l);
    const box = newBox();
    const plain = await box.serve(["--http"]);
    expect(await plain.stop("SIGTERM")).toBe(0);
    const seen = summary(plain.stderr());
    // The machine's RAM, or the limit of the group the tests run in.
    expect(seen.memoryLimitBytes).toBeGreaterThan(0);
    expect(seen.memoryLimitBytes).toBeLessThanOrEqual(totalmem());
    expect(seen.engineRamSize).toBeUndefined();
    const told = await box.serve(["--http"], { env: { BUN_JSC_forceRAMSize: "268435456" } });
    expect(await told.stop("SIGTERM")).toBe(0);
    expect(summary(told.stderr()).engineRamSize).toBe("268435456");
    expect(told.stderr()).toContain("the engine told BUN_JSC_forceRAMSize=268435456");
  });

  test("a second serve on the same data folder or port is refused with a one-line reason", async () => {
    const box = newBox();
    const first = await box.serve(["--http"]);
    const again = await box.run(["serve", "--http", "--host", "127.0.0.1", "--port", String(first.port + 0)]);
    expect(again.code).not.toBe(0);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toContain("already running");
    const other = await box.run([
      "serve",
      "--http",
      "--host",
      "127.0.0.1",
      "--port",
      String(first.port),
      "--data-dir",
      "other",
    ]);
    expect(other.code).not.toBe(0);
    expect(other.stderr.trim().split("\n")).toHaveLength(1);
    expect(other.stderr).toContain("already in use");
    expect(await first.stop("SIGINT")).toBe(0);
  });

  test("HTTPS by default with a P-256 certificate from the box's local CA, both reused after restart", async () => {
    const box = newBox();
    const s1 = await box.serve([]);
    const pem = box.certificatePem();
    const cert = new X509Certificate(pem);
    const caPem = readFileSync(join(box.dataDir, "tls", "ca.pem"), "utf8");
    expect(cert.checkIssued(new X509Certificate(caPem))).toBe(true);
    expect(cert.subjectAltName).toContain("DNS:localhost");
    expect(cert.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(s1.stderr()).toContain(cert.fingerprint256);
    expect(s1.stderr()).toContain(new X509Certificate(caPem).fingerprint256);
    // Trusting the CA (as a handheld set up once does) works.
    const r = await fetchTrusting(`${s1.url}/healthz`, caPem);
    expect(r.status).toBe(200);
    // Without trusting it, verification fails.
    await expect(fetch(`${s1.url}/healthz`)).rejects.toThrow();
    expect(await s1.stop()).toBe(0);
    const s2 = await box.serve([]);
    expect(box.certificatePem()).toBe(pem);
    expect(s2.stderr()).toContain(cert.fingerprint256);
    expect(await s2.stop()).toBe(0);
  });

  test("the operator's own certificate with --tls-cert/--tls-key; one without the other is refused", async () => {
    const box = newBox();
    const own = await createSelfSigned({
      commonName: "parking.example",
      dnsNames: ["localhost"],
      ips: ["127.0.0.1"],
    });
    writeFileSync(join(box.dir, "own.pem"), own.certPem);
    writeFileSync(join(box.dir, "own.key"), own.keyPem);
    const half = await box.run(["serve", "--tls-cert", "own.pem", "--port", "0"]);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain("go together");
    const s = await box.serve(["--tls-cert", "own.pem", "--tls-key", "own.key"]);
    expect(s.stderr()).toContain(own.fingerprint);
    const r = await fetch(`${s.url}/healthz`, { tls: { ca: own.certPem } });
    expect(r.status).toBe(200);
    expect(existsSync(join(box.dataDir, "tls", "cert.pem"))).toBe(false);
    expect(await s.stop()).toBe(0);
  });

  test("an oversized body is 413 problem+json from the front end", async () => {
    const box = newBox();
    const server = await box.serve(["--http", "--body-limit-kb", "1"]);
    const r = await fetch(`${server.url}/anything`, {
      method: "POST",
      body: "x".repeat(4096),
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(413);
    expect(r.headers.get("content-type")).toStartWith("application/problem+json");
    expect(((await r.json()) as { type: string }).type).toBe("/problems/payload-too-large");
    await server.stop();
  });
});
