import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The layout's rules, checked on every file so a change that breaks them fails here rather than
 * in a review (docs/architecture.md, "Code layout"):
 * - src/domain imports only src/domain, and no I/O (store, HTTP framework, files, network);
 * - src/platform imports no module, no CLI and not the composition root;
 * - a module imports no other module, no CLI and not the context: its deps.ts names the
 *   dependencies it is built from (the store as the repositories it uses), its entry (index.ts)
 *   builds it from them, and the composition root (app.ts) hands them over; no file of a module
 *   imports its own entry, and a module's files import one another without a circle;
 * - the composition root and the CLI reach a module only through its entry;
 * - the context holds the platform only: it imports no module, so no module service can be
 *   reached through it;
 * - SQL on a table is written only in that table's repository in src/platform/store, and nothing
 *   outside src/platform/store holds the raw connection;
 * - a route's TypeBox shapes live in its module's model.ts, never in the route file;
 * - problems (the one table, the one error class) are checked in problems.test.ts.
 */

const SRC = resolve(import.meta.dir, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

interface Import {
  file: string;
  spec: string;
  typeOnly: boolean;
  /** Path under src/ for relative imports, else the package name. */
  target: string;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gm;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3]!;
    const target = spec.startsWith(".") ? relative(SRC, resolve(dirname(file), spec)) : spec;
    out.push({ file: relative(SRC, file), spec, typeOnly: Boolean(m[2]), target });
  }
  return out;
}

const all = files(SRC).flatMap(importsOf);

/** A file's lines with comments blanked out, and string literals too unless `strings` is set. */
function codeOf(file: string, strings = false): string[] {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .split("\n")
    .map((line) =>
      strings
        ? line.replace(/(^|[^:])\/\/.*$/, "$1")
        : line.replace(/\/\/.*$|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""'),
    );
}
const CLIENT = "client/";
const CLIENT_API_TYPES = `${CLIENT}api-types.ts`;
const moduleOf = (path: string) => /^modules\/([^/]+)\//.exec(path)?.[1];
const MODULE_ENTRY = /^modules\/[^/]+\/index\.ts$/;

describe("layers", () => {
  test("the domain imports only the domain, and nothing that does I/O", () => {
    const bad = all.filter(
      (i) =>
        i.file.startsWith("domain/") &&
        (i.spec.startsWith(".") ? !i.target.startsWith("domain/") : !i.spec.startsWith("@sinclair/typebox")),
    );
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
  });

  test("the platform imports no module, no CLI and not the composition root", () => {
    const bad = all.filter(
      (i) =>
        i.file.startsWith("platform/") &&
        i.spec.startsWith(".") &&
        /^(modules\/|cli\/|app\.ts$|context\.ts$)/.test(i.target),
    );
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
  });

  test("a module imports no other module, no CLI and not the context", () => {
    const bad = all.filter((i) => {
      const own = moduleOf(i.file);
      if (!own || !i.spec.startsWith(".")) return false;
      // The web client's one window onto the server's models: types, erased from its bundle.
      if (i.file === CLIENT_API_TYPES && i.typeOnly) return false;
      const other = moduleOf(i.target);
      if (other && other !== own) return true;
      return /^(cli\/|app\.ts$|context\.ts$)/.test(i.target);
    });
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
  });

  // The entry builds the module from its files; a file that imported the entry back (for the
  // module's dependencies, say) would close a circle through everything the entry builds.
  test("no file of a module imports its own entry: its dependencies are named in its deps.ts", () => {
    const bad = all.filter((i) => {
      const own = moduleOf(i.file);
      return own !== undefined && i.spec.startsWith(".") && i.target === `modules/${own}/index.ts`;
    });
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
    const modules = readdirSync(join(SRC, "modules")).filter((m) =>
      statSync(join(SRC, "modules", m)).isDirectory(),
    );
    expect(
      modules.filter((m) => !statSync(join(SRC, "modules", m, "deps.ts"), { throwIfNoEntry: false })),
    ).toEqual([]);
  });

  // A circle makes every file on it load, and be read, with all the others: the entries and
  // deps.ts files are laid out so that none remains inside a module.
  test("the files of a module import one another without a circle", () => {
    const edges = new Map<string, string[]>();
    for (const i of all)
      if (i.file.startsWith("modules/") && !i.file.startsWith(CLIENT) && i.target.startsWith("modules/"))
        edges.set(i.file, [...(edges.get(i.file) ?? []), i.target]);
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...path.slice(path.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of edges.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });

  // The domain is pure: the phone runs the box's own rules (the offline verdict, plates), so
  // that the two cannot decide differently.
  test("the web client imports its own files, the domain, uqr and tesseract.js, and the server's models for types only", () => {
    const bad = all.filter(
      (i) =>
        i.file.startsWith(CLIENT) &&
        (i.spec.startsWith(".")
          ? !i.target.startsWith(CLIENT) &&
            !i.target.startsWith("domain/") &&
            !(i.file === CLIENT_API_TYPES && i.typeOnly)
          : !(
              i.spec === "uqr" ||
              // The plate reader's engine, run in the page (src/client/plate-reader).
              i.spec === "tesseract.js" ||
              (i.spec === "@sinclair/typebox" && i.typeOnly)
            )),
    );
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
  });

  // The client's type check cannot keep Bun's globals out: the server models it reads for their
  // types are built with Elysia's `t`, and Elysia's own declarations import "bun". So the rule is
  // checked here, on the client's text: no server-only global in code that runs in a browser.
  test("the web client's code and the domain it runs name no server-only global (Bun, process, Buffer, require)", () => {
    const bad = [...files(join(SRC, CLIENT)), ...files(join(SRC, "domain"))].flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ line: line.replace(/\/\/.*$|"[^"]*"|'[^']*'|`[^`]*`/g, ""), at: i + 1 }))
        .filter(({ line }) => /\b(Bun|process|Buffer|require|__dirname)\b/.test(line))
        .map(({ at }) => `${relative(SRC, file)}:${at}`),
    );
    expect(bad).toEqual([]);
  });

  test("the context imports no module: module services are never reached through it", () => {
    const bad = all.filter(
      (i) => i.file === "context.ts" && i.spec.startsWith(".") && /^modules\//.test(i.target),
    );
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
  });

  test("every module has an entry that the composition root builds it through", () => {
    const modules = readdirSync(join(SRC, "modules")).filter((m) =>
      statSync(join(SRC, "modules", m)).isDirectory(),
    );
    const fromRoot = all.filter((i) => i.file === "app.ts" && i.target.startsWith("modules/"));
    expect(
      modules.filter((m) => !statSync(join(SRC, "modules", m, "index.ts"), { throwIfNoEntry: false })).sort(),
    ).toEqual([]);
    // The root reaches a module only by its entry, types included.
    expect(fromRoot.filter((i) => !MODULE_ENTRY.test(i.target)).map((i) => i.target)).toEqual([]);
  });

  // A command reaches a module as the composition root does, by its entry: what a module's files
  // are called and where they sit stays the module's own business.
  test("the CLI imports a module only by its entry, and otherwise the platform, the domain and the root", () => {
    const bad = all.filter(
      (i) =>
        i.file.startsWith("cli/") &&
        i.spec.startsWith(".") &&
        !(MODULE_ENTRY.test(i.target) || /^(cli|platform|domain)\//.test(i.target)) &&
        !/^(app|context|config|version)\.ts$/.test(i.target),
    );
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
  });
});

describe("models", () => {
  // One place to find a route's shapes: what it validates, what it answers and what the
  // document publishes are read in the module's model.ts, not in the file that serves it.
  test("a route file builds no TypeBox shape: they live in the module's model.ts", () => {
    const routeFiles = files(join(SRC, "modules")).filter((f) => /(routes|health)\.ts$/.test(f));
    expect(routeFiles.length).toBeGreaterThan(10);
    const shaped = routeFiles
      .filter((f) => codeOf(f).some((line) => /\bt\.[A-Z]\w*\(/.test(line)))
      .map((f) => relative(SRC, f));
    expect(shaped).toEqual([]);
  });
});

/** The console's ticket search sits beside the tickets repository (tickets.ts is at its size limit). */
/** The tickets owner is a folder: the intake's and lookups' statements, the console's search, the sync's reads. */
const TICKET_OWNERS = [
  "platform/store/tickets/records.ts",
  "platform/store/tickets/search.ts",
  "platform/store/tickets/sync.ts",
  "platform/store/tickets/reports.ts",
];
const OWNERS: Record<string, string | string[]> = {
  tickets: TICKET_OWNERS,
  ticket_events: TICKET_OWNERS,
  permits: "platform/store/permits.ts",
  parking_lots: "platform/store/lots.ts",
  api_tokens: "platform/store/credentials.ts",
  api_users: "platform/store/credentials.ts",
  permit_lookups: "platform/store/lookups.ts",
  operator_changes: "platform/store/changes.ts",
  store_probe: "platform/store/probe.ts",
  central_permits: "platform/store/permits.ts",
  sync_cursors: "platform/store/sync-cursors.ts",
  revenue_days: "platform/store/revenue.ts",
  revenue_basis: "platform/store/revenue.ts",
  browser_sessions: "platform/store/sessions.ts",
  notices: "platform/store/notices.ts",
  notice_reasons: "platform/store/notices.ts",
  notice_photos: "platform/store/notices.ts",
  notice_counters: "platform/store/notices.ts",
  observations: "platform/store/observations.ts",
  backup_photos: "platform/store/backup.ts",
};
/**
 * The one file whose SQL names tables by interpolation: the backup's copy of the whole store,
 * which names every table the store's schema holds, read from sqlite_master, as VACUUM INTO does
 * (no table's rows are its business).
 */
const WHOLE_STORE_COPY = "platform/store/paced-copy.ts";
const SQL_ON = new RegExp(
  `\\b(?:FROM|INTO|UPDATE|JOIN|TABLE)\\s+(${Object.keys(OWNERS).join("|")})\\b`,
  "gi",
);

/**
 * Index and trigger DDL names its table after ON (and a trigger's body after INTO, UPDATE, FROM):
 * written in capitals, as every statement here is, so that "on permits" in a sentence is not SQL.
 */
const SQL_DDL = new RegExp(`\\bON\\s+(?:(?:main|temp)\\.)?(${Object.keys(OWNERS).join("|")})\\b`, "g");
/** A table name built by interpolation (`ON main.${table}`) is out of every owner's sight. */
const SQL_INTERPOLATED = /\b(?:FROM|INTO|UPDATE|JOIN|TABLE|ON)\s+(?:(?:main|temp)\.)?\$\{/g;

/** Where SQL names a table, as [table, match]; interpolated names as ["(interpolated)", match]. */
function tablesNamed(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of text.matchAll(SQL_ON)) out.push([m[1]!.toLowerCase(), m[0]]);
  for (const m of text.matchAll(SQL_DDL)) out.push([m[1]!.toLowerCase(), m[0]]);
  for (const m of text.matchAll(SQL_INTERPOLATED)) out.push(["(interpolated)", m[0]]);
  return out;
}

describe("one owner per table", () => {
  test("SQL naming a table appears only in its repository, index and trigger DDL included", () => {
    const bad: string[] = [];
    for (const file of files(SRC)) {
      const path = relative(SRC, file);
      for (const [table, sql] of tablesNamed(readFileSync(file, "utf8"))) {
        const owners = table === "(interpolated)" ? WHOLE_STORE_COPY : (OWNERS[table] ?? []);
        if (![owners].flat().includes(path)) bad.push(`${path}: ${sql}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test("the rule sees statements, DDL and interpolated table names, not sentences", () => {
    const seen = (text: string) => tablesNamed(text).map(([t]) => t);
    expect(seen("SELECT id FROM tickets WHERE plate_norm = ?1")).toEqual(["tickets"]);
    expect(seen("CREATE INDEX tickets_zone_time ON tickets (zone, end_at)")).toEqual(["tickets"]);
    expect(seen("CREATE TEMP TRIGGER t AFTER INSERT ON main.permits BEGIN SELECT 1; END")).toEqual([
      "permits",
    ]);
    const interpolated = `CREATE TEMP TRIGGER t AFTER UPDATE ON main.${"$"}{table} BEGIN SELECT 1; END`;
    expect(seen(interpolated)).toEqual(["(interpolated)"]);
    expect(seen("// the zone list depends on permits and on tickets")).toEqual([]);
  });

  test("the office sync reads no browser session: they stay on the box", () => {
    const reads = files(join(SRC, "modules/sync"))
      .filter((f) => /browserSessions|browser_sessions|SessionStore/.test(readFileSync(f, "utf8")))
      .map((f) => relative(SRC, f));
    expect(reads).toEqual([]);
    expect(readFileSync(join(SRC, "platform/store/sessions.ts"), "utf8")).toContain("browser_sessions");
  });

  // A repository is the only place that holds SQL for its tables: with the connection itself
  // (bun:sqlite's Database, drizzle's handle) anyone could write a statement around its owner.
  test("nothing outside src/platform/store touches the raw connection", () => {
    const imports = all.filter(
      (i) => !i.file.startsWith("platform/store/") && /^(bun:sqlite|drizzle-orm)(\/|$)/.test(i.spec),
    );
    expect(imports.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
    const reaches = files(SRC)
      .filter((f) => !relative(SRC, f).startsWith("platform/store/"))
      .flatMap((file) => {
        const path = relative(SRC, file);
        const members = codeOf(file)
          .map((line, i) => ({ line, at: i + 1 }))
          .filter(({ line }) => /\.(sqlite|db)\b/.test(line))
          .map(({ at }) => `${path}:${at}`);
        const typed = codeOf(file, true).join("\n");
        const named = /\bStore\[\s*"(sqlite|db)"|\bPick<\s*Store\s*,[^>]*"(sqlite|db)"/.test(typed)
          ? [path]
          : [];
        return [...members, ...named];
      });
    expect(reaches).toEqual([]);
  });

  // Each module is handed the repositories it uses, named in its deps.ts, so what a module can
  // reach of the store is read in one place; the whole Store stays with the root and the CLI.
  test("a module takes the store as the repositories it uses (Pick<Store, ...>), never whole", () => {
    const whole = files(join(SRC, "modules"))
      .filter((f) => !f.includes(`/${CLIENT}`))
      .flatMap((file) => {
        const code = codeOf(file)
          .filter((line) => !/^\s*(import|export)\b.*\bfrom\b|^\s*(import|export) (type )?\{$/.test(line))
          .join("\n");
        return [...code.matchAll(/(?<!Pick<\s*)\bStore\b/g)].map(() => relative(SRC, file));
      });
    expect([...new Set(whole)]).toEqual([]);
  });

  test("the drizzle schema is imported only inside the store", () => {
    const bad = all.filter(
      (i) => i.target.startsWith("platform/store/schema") && !i.file.startsWith("platform/store/"),
    );
    expect(bad.map((i) => `${i.file} → ${i.spec}`)).toEqual([]);
  });
});
