import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A GET as a client that installed the box's CA sees it, through Debian's curl (OpenSSL's
 * verifier). Not Bun's fetch: BoringSSL's verifier refuses any certificate with an IP address
 * under a CA whose name constraints list address blocks ("unsupported name constraint type"),
 * which the local CA's do (docs/network.md).
 */
export async function fetchTrusting(url: string, caPem: string): Promise<{ status: number; body: string }> {
  const ca = join(mkdtempSync(join(tmpdir(), "parkd-ca-client-")), "ca.pem");
  writeFileSync(ca, caPem);
  const p = Bun.spawn(["curl", "-sS", "--cacert", ca, "-w", "\n%{http_code}", url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(p.stdout).text();
  const err = await new Response(p.stderr).text();
  if ((await p.exited) !== 0) throw new Error(`curl ${url}: ${err.trim()}`);
  const at = out.lastIndexOf("\n");
  return { status: Number(out.slice(at + 1)), body: out.slice(0, at) };
}
