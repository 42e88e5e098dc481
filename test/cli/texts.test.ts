import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseChangelog, releaseNotes, unreleasedOf } from "../../deploy/release-notes.ts";
import { envName } from "../../src/cli/args.ts";
import type { Command } from "../../src/cli/command.ts";
import { rootCommand } from "../../src/cli/index.ts";

const ROOT = join(import.meta.dir, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
/** The man page as text: roff's escapes and font changes taken out. */
const manPage = read("deploy/debian/parkd.1")
  .replace(/\\f[BIRP]/g, "")
  .replace(/\\-/g, "-")
  .replace(/^\.(BR|BI|B|I|IR|TP|PP|SH)\s?/gm, "")
  .replace(/"/g, "");
const envFile = read("deploy/debian/parkd.env");

/** Every command of the binary, as "central add-site", with its options. */
function commands(cmd: Command, path: string[] = []): { path: string; flags: string[] }[] {
  const here = path.length ? [{ path: path.join(" "), flags: (cmd.options ?? []).map((o) => o.name) }] : [];
  return [...here, ...(cmd.subcommands ?? []).flatMap((c) => commands(c, [...path, c.name]))];
}
const all = commands(rootCommand);
const flags = new Set(all.flatMap((c) => c.flags));
const serveFlags = all.find((c) => c.path === "serve")!.flags;

describe("the man page and the service's settings file say what the binary does", () => {
  test("every command and subcommand is in the man page", () => {
    const section = manPage.slice(manPage.indexOf("COMMANDS"), manPage.indexOf("ENVIRONMENT"));
    const missing = all.filter((c) => {
      const words = c.path.split(" ");
      // A subcommand is named after its command ("token create | list"), or with it ("central add-site").
      return !words.every((w) => new RegExp(`(^|[\\s|,])${w}([\\s|,]|$)`, "m").test(section));
    });
    expect(missing.map((c) => c.path)).toEqual([]);
  });

  test("every flag the man page names is one of the binary's", () => {
    const named = [...manPage.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((f) => f !== "help" && !flags.has(f))).toEqual([]);
  });

  test("every PARKD_ setting in parkd.env is a serve flag", () => {
    const env = new Map(serveFlags.map((f) => [envName(f), f]));
    const named = [...envFile.matchAll(/^#?(PARKD_[A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((n) => !env.has(n))).toEqual([]);
  });

  test("neither speaks of the memory restart serve no longer makes", () => {
    for (const text of [manPage, envFile]) {
      expect(text).not.toMatch(/starts itself again|the unit sets 256 MB|unit sets it/);
    }
  });
});

describe("the release notes of a build", () => {
  const text = read("docs/changelog.md");
  const releases = parseChangelog(text);
  const version = JSON.parse(read("package.json")).version as string;

  test("the version built has its section, and a build with later changes carries them first", () => {
    const mine = releases.find((r) => r.version === version);
    expect(mine).toBeDefined();
    const later = unreleasedOf(text);
    const notes = releaseNotes(mine!, later);
    if (later) {
      expect(notes.indexOf(`## In this build, after ${version}`)).toBeLessThan(
        notes.indexOf(mine!.body.slice(0, 40)),
      );
      expect(notes).toContain(later.slice(0, 60));
    } else expect(notes).not.toContain("In this build");
  });

  test("an Unreleased section without items adds nothing", () => {
    expect(unreleasedOf("# Changelog\n\n## Unreleased\n\n## 1.0.0 (2026-01-01)\n\n- a\n")).toBe("");
    expect(unreleasedOf("# Changelog\n\n## Unreleased\n\n- b\n\n## 1.0.0 (2026-01-01)\n\n- a\n")).toBe("- b");
  });
});
