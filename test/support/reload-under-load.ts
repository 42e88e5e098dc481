/**
 * Serves the binary on 127.0.0.1:PORT, keeps 8 loops of TLS handshakes going across 20 SIGHUPs,
 * the last with a renewed certificate, and prints what the clients saw as one JSON line.
 *
 * usage: bun reload-under-load.ts PARKD_BIN WORK_DIR PORT
 */
import { X509Certificate } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:tls";
import { createSelfSigned } from "../../src/platform/http/x509.ts";

const [bin, work, port] = process.argv.slice(2) as [string, string, string];
const PORT = Number(port);
const LOOPS = 8;
const RELOADS = 20;
const dataDir = join(work, "data");
mkdirSync(dataDir, { recursive: true });
const names = { dnsNames: ["localhost"], ips: ["127.0.0.1"] };
const first = await createSelfSigned({ commonName: "first", ...names });
const renewed = await createSelfSigned({ commonName: "renewed", ...names });
const certFile = join(work, "site.crt");
const keyFile = join(work, "site.key");
writeFileSync(certFile, first.certPem);
writeFileSync(keyFile, first.keyPem);

const server = Bun.spawn(
  [bin, "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", String(PORT)].concat([
    "--tls-cert",
    certFile,
    "--tls-key",
    keyFile,
  ]),
  { stdout: "pipe", stderr: "pipe" },
);
let log = "";
const read = async (s: ReadableStream<Uint8Array>) => {
  for await (const chunk of s) log += new TextDecoder().decode(chunk);
};
void read(server.stdout);
void read(server.stderr);

/** One handshake: the served certificate's fingerprint, or the error's code. */
const handshake = () =>
  new Promise<{ fingerprint?: string; error?: string }>((resolve) => {
    const s = connect({ host: "127.0.0.1", port: PORT, rejectUnauthorized: false }, () => {
      const fingerprint = s.getPeerX509Certificate()?.fingerprint256;
      s.destroy();
      resolve({ fingerprint });
    });
    s.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });

for (let i = 0; i < 200 && !log.includes("listening on"); i++) await Bun.sleep(50);
if (!log.includes("listening on")) {
  server.kill();
  console.log(JSON.stringify({ started: false, log }));
  process.exit(1);
}

let running = true;
let ok = 0;
const errors: Record<string, number> = {};
const loops = Array.from({ length: LOOPS }, async () => {
  while (running) {
    const r = await handshake();
    if (r.error) errors[r.error] = (errors[r.error] ?? 0) + 1;
    else ok++;
  }
});
const reloaded = () => log.split("SIGHUP: serving the certificate").length - 1;
for (let i = 1; i <= RELOADS; i++) {
  if (i === RELOADS) {
    writeFileSync(certFile, renewed.certPem);
    writeFileSync(keyFile, renewed.keyPem);
  }
  server.kill("SIGHUP");
  for (let w = 0; w < 100 && reloaded() < i; w++) await Bun.sleep(10);
  await Bun.sleep(40);
}
running = false;
await Promise.all(loops);
const after = await handshake();
server.kill("SIGTERM");
await server.exited;
console.log(
  JSON.stringify({
    started: true,
    reloads: reloaded(),
    ok,
    errors,
    servedAfter: after.fingerprint ?? after.error,
    renewed: new X509Certificate(renewed.certPem).fingerprint256,
  }),
);
