import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { PROBLEMS, type ProblemEntry } from "../../src/domain/problems.ts";

/**
 * One problem table and one error class (docs/architecture.md, "Where a change goes"): every problem+json
 * answer is a `Problem` (src/domain/errors.ts) of a type in src/domain/problems.ts. A second
 * catalogue, or a second error class the HTTP mapping answers, would let a title or a status be
 * said twice and drift, so each is refused here by what it looks like.
 */

const SRC = resolve(import.meta.dir, "../../src");
const TABLE = "domain/problems.ts";
const ERRORS = "domain/errors.ts";
const CLIENT = "client/";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** A file's text with comments blanked out (strings kept: a catalogue is made of them). */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

const sources = files(SRC).map((f) => ({ path: relative(SRC, f), code: codeOf(readFileSync(f, "utf8")) }));

/**
 * What a problem catalogue looks like, in any of the shapes the box has had: a table named as
 * one (`TICKET_REFUSALS`, `PLATFORM_CATALOG`), a `Record<…, { status … }>` type, or entries
 * pairing a status (or a refusal kind) with a title.
 */
const CATALOGUE_SIGNS: [string, RegExp][] = [
  ["a table named as one", /\b[A-Z][A-Z0-9]*_(REFUSALS|CATALOG|PROBLEMS)\b/],
  ["a Record of statuses", /Record<[^;=]*\{\s*(readonly\s+)?(status|kind)\??\s*:/],
  ["a status beside a title", /\bstatus:\s*[1-5]\d\d\s*,\s*title\s*:/],
  ["a title beside a status", /\btitle:\s*("[^"\n]*"|'[^'\n]*'|`[^`\n]*`)\s*,\s*status:\s*[1-5]\d\d/],
  [
    "a refusal kind beside a title",
    /\bkind:\s*"(invalid|not-found|conflict|stale|forbidden|too-many|busy)"\s*,\s*title\s*:/,
  ],
];

function catalogueSigns(code: string): string[] {
  return CATALOGUE_SIGNS.filter(([, re]) => re.test(code)).map(([name]) => name);
}

/** Classes that extend `base`, directly or through another class of src/. */
function subclassesOf(base: string): Map<string, string> {
  const parent = new Map<string, string>();
  const where = new Map<string, string>();
  for (const { path, code } of sources)
    for (const m of code.matchAll(/\bclass\s+(\w+)\s+extends\s+(\w+)/g)) {
      parent.set(m[1]!, m[2]!);
      where.set(m[1]!, path);
    }
  const out = new Map<string, string>();
  for (const name of parent.keys()) {
    let p: string | undefined = name;
    for (let depth = 0; p && depth < 10; depth++) {
      p = parent.get(p);
      if (p === base) {
        out.set(name, where.get(name)!);
        break;
      }
    }
  }
  return out;
}

/** A class's body, from just after its opening brace to its closing one. */
function bodyAt(code: string, start: number): string {
  let depth = 1;
  for (let i = start; i < code.length; i++) {
    if (code[i] === "{") depth++;
    else if (code[i] === "}" && --depth === 0) return code.slice(start, i);
  }
  return code.slice(start);
}

describe("one problem table", () => {
  test("the signs of a catalogue are seen (so the next test can fail)", () => {
    expect(catalogueSigns('export const KIOSK_REFUSALS = { "x": {} }')).toEqual(["a table named as one"]);
    expect(catalogueSigns("const c: Record<string, { status: number; title: string }> = {}")).toContain(
      "a Record of statuses",
    );
    expect(catalogueSigns('gone: {\n  status: 410,\n  title: "Gone",\n}')).toEqual([
      "a status beside a title",
    ]);
    expect(catalogueSigns('{ title: "Gone", status: 410 }')).toEqual(["a title beside a status"]);
    expect(catalogueSigns('{ kind: "not-found", title: "Gone", example: "" }')).toEqual([
      "a refusal kind beside a title",
    ]);
    expect(catalogueSigns('const answer = { status: 200, body: "ok" }')).toEqual([]);
  });

  test(`problems are declared only in ${TABLE}`, () => {
    const elsewhere = sources
      .filter((s) => s.path !== TABLE)
      .flatMap((s) => catalogueSigns(s.code).map((sign) => `${s.path}: ${sign}`));
    expect(elsewhere).toEqual([]);
  });

  test("each entry has a status, a title and the classes of routes that may answer it", () => {
    for (const [type, e] of Object.entries(PROBLEMS) as [string, ProblemEntry][]) {
      expect({ type, ok: /^[a-z0-9]+(-[a-z0-9]+)*$/.test(type) }).toEqual({ type, ok: true });
      expect(e.status).toBeGreaterThanOrEqual(400);
      expect(e.status).toBeLessThan(600);
      expect(e.title.length).toBeGreaterThan(0);
      expect(e.example.length).toBeGreaterThan(0);
      // An entry with no class is answered only by the routes that declare it (test/contract).
      expect(Array.isArray(e.classes)).toBe(true);
    }
  });
});

describe("one error class", () => {
  const errorClasses = subclassesOf("Error");

  test("Problem is declared once, in the domain, and nothing extends it", () => {
    const declared = sources.filter((s) => /\bclass\s+Problem\b/.test(s.code)).map((s) => s.path);
    expect(declared).toEqual([ERRORS]);
    expect([...subclassesOf("Problem").entries()].map(([name, path]) => `${path}: ${name}`)).toEqual([]);
  });

  // The web client's errors read answers in the browser; they never become one.
  test("no other error of the server carries a status: an error with one is an answer in waiting", () => {
    const withStatus = sources
      .filter((s) => !s.path.startsWith(CLIENT))
      .flatMap((s) =>
        [...s.code.matchAll(/\bclass\s+(\w+)\s+extends\s+\w+[^{]*\{/g)]
          .filter((m) => errorClasses.has(m[1]!) && m[1] !== "Problem")
          .filter((m) => /\b(status|statusCode)\s*[:=;?]/.test(bodyAt(s.code, m.index! + m[0].length)))
          .map((m) => `${s.path}: ${m[1]}`),
      );
    expect(withStatus).toEqual([]);
  });

  test("the HTTP mapping recognises Problem alone", () => {
    const others = sources
      .filter((s) => s.path.startsWith("platform/http/") || s.path === "app.ts")
      .flatMap((s) =>
        [...s.code.matchAll(/\binstanceof\s+(\w+)/g)]
          .map((m) => m[1]!)
          .filter((name) => errorClasses.has(name) && name !== "Problem")
          .map((name) => `${s.path}: instanceof ${name}`),
      );
    expect(others).toEqual([]);
  });

  test("a problem is made from the table: new Problem only in refuse()", () => {
    const byHand = sources.filter((s) => /\bnew\s+Problem\s*\(/.test(s.code)).map((s) => s.path);
    expect(byHand).toEqual([ERRORS]);
  });

  test("services refuse in the domain's words: the platform's own problems are made only in routes", () => {
    const makers = sources
      .filter((s) => s.path.startsWith("modules/") && !/(routes|health)\.ts$/.test(s.path))
      .filter((s) => /\bproblems\.\w+\(/.test(s.code))
      .map((s) => s.path);
    expect(makers).toEqual([]);
  });

  test("no error is told apart by its words", () => {
    const byWords = sources
      .filter((s) => !s.path.startsWith("cli/"))
      .filter((s) =>
        /\.message\s*(===|!==|==)|\.message\.(includes|startsWith|endsWith|match)\(|\.test\(\w+\.message\)/.test(
          s.code,
        ),
      )
      .map((s) => s.path);
    expect(byWords).toEqual([]);
  });
});
