/**
 * The ceiling: raw Bun.serve answering a fixed JSON array, nothing else; over TLS when given a
 * certificate and key (the same files parkd serves, for the HTTPS ceiling).
 *
 *   bun bench/raw-server.ts PORT [CERT.pem KEY.pem]
 */
import { CEILING_BODY as body } from "./ceiling-body.ts";

const [port, certFile, keyFile] = process.argv.slice(2);
Bun.serve({
  port: Number(port),
  hostname: "127.0.0.1",
  reusePort: false,
  ...(certFile && keyFile ? { tls: { cert: Bun.file(certFile), key: Bun.file(keyFile) } } : {}),
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
console.log(`raw ceiling on ${port}${certFile ? " (TLS)" : ""}`);
