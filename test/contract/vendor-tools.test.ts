/**
 * The contract as a terminal vendor tries it, with tools nobody here wrote: Portman turns the
 * served /openapi.json into a Postman collection with contract tests (status, content type,
 * JSON body, schema, headers), newman runs it against the built binary, and Stoplight Prism's
 * proxy validates the same requests and their answers against the document, both ways.
 * Everything runs on 127.0.0.1: the document comes from the box, nothing is fetched elsewhere.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawn } from "bun";
import { type Box, boxesForFile, freePort, type Server } from "../support/binary.ts";
import { jpegHead } from "../support/photos.ts";

type Json = Record<string, unknown>;

const ROOT = resolve(import.meta.dir, "../..");
const BIN = join(ROOT, "node_modules/.bin");
const NODE = Bun.which("node");
const TOOLS = ["portman", "newman", "prism"].map((t) => join(BIN, t));
const haveTools = !!NODE && TOOLS.every((t) => existsSync(t));
if (!haveTools && process.env.CI === "true")
  throw new Error("node and the locked portman, newman and prism are required in CI (bun install)");

const newBox = boxesForFile();

/** The box's certificate is from its own local CA, which this machine does not trust. */
const INSECURE = { tls: { rejectUnauthorized: false } };
const TOOL_ENV = { ...process.env, NO_COLOR: "1", NODE_TLS_REJECT_UNAUTHORIZED: "0" };

/** Streams of server-sent events never end: a collection run would wait on them forever. */
const STREAMS = ["GET::/api/v1/board/events", "GET::/api/v1/tickets/zone/{zone}/events"];

interface Seeded {
  box: Box;
  server: Server;
  tokens: { admin: string; terminal: string; handheld: string; notices: string; session: string };
  /**
   * A token the collection may delete, one a sign-in code may be made for, a user to delete, and
   * the hash of the seeded notice's photo (a hash is its content's: no example can name it).
   */
  ids: { deletableToken: string; codeToken: string; deletableUser: string; photoHash: string };
}

async function api(server: Server, token: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${server.url}${path}`, {
    ...INSECURE,
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? (JSON.parse(text) as Json) : {};
}

/** The document's own example for an operation's request body. */
function requestExample(doc: Json, path: string, method: string): unknown {
  const op = (doc.paths as Record<string, Record<string, Json>>)[path]![method]!;
  const media = ((op.requestBody as Json).content as Record<string, Json>)["application/json"]!;
  if (media.example !== undefined) return media.example;
  return (Object.values(media.examples as Record<string, Json>)[0] as Json).value;
}

/**
 * A box with the data the document's examples name: the lot and the permit they use (id 1),
 * ticket 100234, scoped tokens made with the CLI, and a token and a user the collection may
 * delete (their ids are written into the collection, as a vendor fills a suite's variables).
 */
async function seededBox(): Promise<Seeded> {
  const box = newBox();
  const admin = await box.token("contract-admin", "admin");
  const terminal = await box.token("contract-terminal", "tickets:write");
  const handheld = await box.token("contract-handheld", "permits:read");
  const session = await box.token("contract-session", "permits:read");
  const notices = await box.token("contract-notices", "permits:read", "notices:write");
  // HTTPS with the box's own local CA, as a site runs it (the handheld CA downloads need one).
  const server = await box.serve(["--timezone", "Europe/Stockholm"]);
  const doc = (await (await fetch(`${server.url}/openapi.json`, INSECURE)).json()) as Json;
  await api(server, admin, "POST", "/api/v1/parkings", requestExample(doc, "/api/v1/parkings", "post"));
  await api(server, admin, "POST", "/api/v1/permits", requestExample(doc, "/api/v1/permits", "post"));
  // Lot 2, for the notices: the collection runs the lots' operations (lot 1 deleted last among
  // them) before the notices' own.
  await api(server, admin, "POST", "/api/v1/parkings", requestExample(doc, "/api/v1/parkings", "post"));
  for (const event of Object.values(
    (
      (
        (doc.paths as Record<string, Record<string, Json>>)["/api/v1/actions/tickets"]!.post!
          .requestBody as Json
      ).content as Record<string, Json>
    )["application/json"]!.examples as Record<string, Json>,
  ).slice(0, 1))
    await api(server, terminal, "POST", "/api/v1/actions/tickets", event.value);
  // Notice 1, with a photo, for the reads and the void, under a reason of the seed's own: the
  // collection makes the examples' reason itself (its POST example), then changes it and issues
  // the examples' notice with it.
  await api(server, admin, "POST", "/api/v1/notice-reasons", {
    code: "seeded",
    title: "Seeded for the contract run",
    amount: 10000,
  });
  await api(server, notices, "POST", "/api/v1/attendants/notices", {
    id: "contract-notice-1",
    registration_number: "ABC123",
    zone: 1234,
    verdict: "none",
    reason: "seeded",
    observed_at: new Date().toISOString(),
  });
  const photo = await fetch(`${server.url}/api/v1/attendants/notices/contract-notice-1/photos`, {
    ...INSECURE,
    method: "POST",
    headers: { authorization: `Bearer ${notices}`, "content-type": "image/jpeg" },
    body: jpegHead(64, 48) as Uint8Array<ArrayBuffer>,
  });
  if (photo.status !== 201) throw new Error(`photo: ${photo.status} ${await photo.text()}`);
  const photoHash = String(((await photo.json()) as { data: { hash: string } }).data.hash);
  const idOf = (answer: Json) => String(((answer.data ?? answer) as Json).id);
  const made = async (name: string) =>
    idOf(await api(server, admin, "POST", "/api/v1/tokens", { name, scopes: ["permits:read"] }));
  const deletableUser = idOf(
    await api(server, admin, "POST", "/api/v1/users", {
      name: "contract-user",
      scopes: ["tickets:write"],
      password: "a long enough contract password",
    }),
  );
  return {
    box,
    server,
    tokens: { admin, terminal, handheld, notices, session },
    ids: {
      deletableToken: await made("contract-deletable"),
      codeToken: await made("contract-code"),
      deletableUser,
      photoHash,
    },
  };
}

/** Which token an operation is sent with: the narrowest scope it accepts. */
const TOKEN_FOR_SCOPE: Record<string, string> = {
  admin: "{{adminToken}}",
  "tickets:write": "{{terminalToken}}",
  "permits:read": "{{handheldToken}}",
  "notices:write": "{{noticesToken}}",
};

/** Portman's settings, made from the document: scoped tokens, writes after reads, deletes last. */
function portmanConfig(doc: Json): Json {
  const overwrites: Json[] = [];
  const order: string[] = [];
  // Reads first, then writes, deletes last; signing in before the session's own reads; the
  // examples' reason made before the examples' notice names it, as a site sets up its reasons first.
  const rank = (m: string, path: string) =>
    path === "/api/v1/session"
      ? ({ post: -2, get: -1 }[m] ?? 5)
      : path === "/api/v1/notice-reasons" && m === "post"
        ? 0.5
        : ({ get: 0, post: 1, put: 2, patch: 3, delete: 4 }[m] ?? 5);
  const ops: [string, string, Json][] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>))
    for (const [method, op] of Object.entries(item)) ops.push([path, method, op]);
  ops.sort((a, b) => rank(a[1], a[0]) - rank(b[1], b[0]));
  for (const [path, method, op] of ops) {
    const key = `${method.toUpperCase()}::${path}`;
    order.push(key);
    const security = op.security as Json[];
    const scope = op["x-scope"] as string | undefined;
    const o: Json = { openApiOperation: key };
    if (security.length > 0)
      o.overwriteRequestSecurity = { bearer: { token: TOKEN_FOR_SCOPE[scope ?? "permits:read"] } };
    // A conditional write needs the ETag of the moment; unconditional writes are the interface's own.
    const headers = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.in === "header");
    if (headers.length) o.overwriteRequestHeaders = headers.map((h) => ({ key: h.name, remove: true }));
    overwrites.push(o);
  }
  const set = (key: string, extra: Json) => {
    const o = overwrites.find((x) => x.openApiOperation === key)!;
    Object.assign(o, extra);
  };
  set("POST::/api/v1/session", {
    overwriteRequestBody: [{ key: "token", value: "{{sessionToken}}", overwrite: true }],
  });
  // check-tickets takes exactly one of its two (optional) parameters: the zone, as the interface's example.
  set("GET::/api/v1/attendants/check-tickets", {
    overwriteRequestQueryParams: [{ key: "zone", value: "1234", overwrite: true }],
  });
  set("POST::/api/v1/session/codes", {
    overwriteRequestBody: [{ key: "token_id", value: "{{codeTokenId}}", overwrite: true }],
  });
  set("DELETE::/api/v1/session", {
    overwriteRequestHeaders: [{ key: "X-CSRF-Token", value: "{{csrf}}", overwrite: true }],
  });
  set("DELETE::/api/v1/tokens/{id}", {
    overwriteRequestPathVariables: [{ key: "id", value: "{{deletableTokenId}}", overwrite: true }],
  });
  set("POST::/api/v1/attendants/notices", {
    overwriteRequestBody: [{ key: "parking_lot_id", value: 2, overwrite: true }],
  });
  set("GET::/api/v1/notices/{number}/photos/{hash}", {
    overwriteRequestPathVariables: [{ key: "hash", value: "{{photoHash}}", overwrite: true }],
  });
  set("DELETE::/api/v1/users/{id}", {
    overwriteRequestPathVariables: [{ key: "id", value: "{{deletableUserId}}", overwrite: true }],
  });
  return {
    version: 1.0,
    tests: {
      contractTests: [
        {
          openApiOperation: "*::/*",
          statusSuccess: { enabled: true },
          contentType: { enabled: true },
          jsonBody: { enabled: true },
          schemaValidation: { enabled: true },
          headersPresent: { enabled: true },
        },
      ],
    },
    overwrites,
    assignVariables: [
      {
        openApiOperation: "POST::/api/v1/session",
        collectionVariables: [{ responseBodyProp: "data.csrf", name: "csrf" }],
      },
    ],
    globals: { orderOfOperations: order },
  };
}

async function run(cmd: string[], cwd: string, timeoutMs = 180_000) {
  const p = spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: TOOL_ENV });
  const timer = setTimeout(() => p.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

interface NewmanRun {
  run: {
    stats: Record<string, { total: number; failed: number }>;
    failures: { error: { message: string; test?: string }; source?: { name?: string } }[];
    executions: {
      item: { name: string };
      request: { method: string; url: { path?: string[] } };
      response?: {
        code: number;
        header?: { key: string; value: string }[];
        stream?: { type: "Buffer"; data: number[] };
      };
    }[];
  };
}

async function newman(dir: string, collection: string, base: string, s: Seeded, report: string) {
  const env = {
    baseUrl: base,
    adminToken: s.tokens.admin,
    terminalToken: s.tokens.terminal,
    handheldToken: s.tokens.handheld,
    noticesToken: s.tokens.notices,
    photoHash: s.ids.photoHash,
    sessionToken: s.tokens.session,
    codeTokenId: s.ids.codeToken,
    deletableTokenId: s.ids.deletableToken,
    deletableUserId: s.ids.deletableUser,
  };
  const r = await run(
    [
      NODE!,
      join(BIN, "newman"),
      "run",
      collection,
      ...Object.entries(env).flatMap(([k, v]) => ["--env-var", `${k}=${v}`]),
      "--insecure",
      "--timeout-request",
      "20000",
      "--reporters",
      "json",
      "--reporter-json-export",
      report,
    ],
    dir,
  );
  if (!existsSync(report)) throw new Error(`newman wrote no report: ${r.stderr}${r.stdout}`);
  return JSON.parse(readFileSync(report, "utf8")) as NewmanRun;
}

describe.skipIf(!haveTools)("a vendor's contract suite (Portman, newman, Prism)", () => {
  test("the collection Portman makes from /openapi.json passes against the binary, and Prism finds no violation", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parkd-contract-"));
    try {
      const direct = await seededBox();
      const doc = (await (await fetch(`${direct.server.url}/openapi.json`, INSECURE)).json()) as Json;
      // A photo is raw JPEG or PNG bytes that no example can carry: its upload is tested with
      // real photos in the route tests; every other notice operation runs here.
      const photoUpload = "POST::/api/v1/attendants/notices/{id}/photos";
      writeFileSync(join(dir, "portman.json"), JSON.stringify(portmanConfig(doc), null, 1));
      writeFileSync(join(dir, "filter.json"), JSON.stringify({ operations: [...STREAMS, photoUpload] }));
      const made = await run(
        [
          NODE!,
          join(BIN, "portman"),
          "--url",
          `${direct.server.url}/openapi.json`,
          "--baseUrl",
          "{{baseUrl}}",
          "--portmanConfigFile",
          join(dir, "portman.json"),
          "--filterFile",
          join(dir, "filter.json"),
          "--output",
          join(dir, "collection.json"),
        ],
        dir,
      );
      expect(made.code, made.stdout + made.stderr).toBe(0);

      // newman, straight to the binary.
      const result = await newman(
        dir,
        join(dir, "collection.json"),
        direct.server.url,
        direct,
        join(dir, "direct.json"),
      );
      const { stats, failures } = result.run;
      console.log(
        `newman: ${stats.requests!.total} requests, ${stats.assertions!.total} assertions, ${failures.length} failures`,
      );
      const urlOf = (name?: string) => {
        const e = result.run.executions.find((x) => x.item.name === name);
        if (!e) return "";
        // A refusal's problem says why: shown with the failure.
        const body = e.response?.stream
          ? Buffer.from(e.response.stream.data).toString("utf8").slice(0, 300)
          : "";
        return `${e.request.method} ${JSON.stringify(e.request.url)} → ${e.response?.code} ${body}`;
      };
      const failed = failures.map(
        (f) => `${f.source?.name}: ${f.error.test ?? ""} ${f.error.message} (${urlOf(f.source?.name)})`,
      );
      expect(failed).toEqual([]);
      expect(stats.requests!.total).toBeGreaterThan(50);

      // The same collection through Prism's proxy in front of a second, equally seeded box.
      const proxied = await seededBox();
      const port = await freePort();
      const prism = spawn(
        [
          NODE!,
          join(BIN, "prism"),
          "proxy",
          `${proxied.server.url}/openapi.json`,
          proxied.server.url,
          "--host",
          "127.0.0.1",
          "--port",
          String(port),
          "--errors",
          "false",
        ],
        { cwd: dir, stdout: "pipe", stderr: "pipe", env: TOOL_ENV },
      );
      let prismLog = "";
      void (async () => {
        for await (const c of prism.stdout) prismLog += new TextDecoder().decode(c);
      })();
      void (async () => {
        for await (const c of prism.stderr) prismLog += new TextDecoder().decode(c);
      })();
      try {
        const deadline = Date.now() + 60_000;
        while (!prismLog.includes("Prism is listening")) {
          if (prism.exitCode !== null || Date.now() > deadline)
            throw new Error(`prism did not start: ${prismLog}`);
          await Bun.sleep(100);
        }
        const viaPrism = await newman(
          dir,
          join(dir, "collection.json"),
          `http://127.0.0.1:${port}`,
          proxied,
          join(dir, "prism.json"),
        );
        const violations = viaPrism.run.executions.flatMap((e) =>
          (e.response?.header ?? [])
            .filter((h) => h.key.toLowerCase() === "sl-violations")
            .map((h) => `${e.item.name}: ${h.value}`),
        );
        console.log(
          `prism: ${viaPrism.run.executions.length} requests validated both ways, ${violations.length} with violations`,
        );
        expect(violations).toEqual([]);
        expect(viaPrism.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`)).toEqual([]);
      } finally {
        prism.kill("SIGKILL");
        await prism.exited;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
