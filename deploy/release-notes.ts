/**
 * Release texts from docs/changelog.md, for build.sh:
 *   bun deploy/release-notes.ts notes VERSION            the release notes (markdown) on stdout
 *   bun deploy/release-notes.ts debian-changelog VERSION  the Debian changelog, newest first, on stdout
 * Exits 1 when the changelog has no section for VERSION: no release without its notes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Release {
  version: string;
  date: string;
  /** The section's text, as written. */
  body: string;
  /** Its list items, each one paragraph. */
  items: string[];
}

export const DEBIAN_MAINTAINER = "parkd maintainers <parkd@example.org>";

export function parseChangelog(text: string): Release[] {
  const out: Release[] = [];
  const parts = text.split(/^## /m).slice(1);
  for (const part of parts) {
    // What is merged but not yet released; a release renames it to its own heading.
    if (part.startsWith("Unreleased\n")) continue;
    const m = /^(\d+\.\d+\.\d+\S*) \((\d{4}-\d{2}-\d{2})\)\n/.exec(part);
    if (!m) throw new Error(`changelog heading "## ${part.split("\n")[0]}" is not "## VERSION (YYYY-MM-DD)"`);
    const body = part.slice(m[0].length).trim();
    const items = body
      .split(/^- /m)
      .slice(1)
      .map((i) => i.replace(/\s*\n\s*/g, " ").trim());
    out.push({ version: m[1]!, date: m[2]!, body, items });
  }
  return out;
}

function wrap(text: string, width: number, first: string, rest: string): string {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(" ")) {
    if (line.trim() && line.length + word.length + 1 > width) {
      lines.push(line.trimEnd());
      line = rest;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join("\n");
}

/** The changelog's `## Unreleased` section as written; "" when it has no items. */
export function unreleasedOf(text: string): string {
  const part = text.split(/^## /m).find((p) => p.startsWith("Unreleased\n"));
  const body = part?.slice("Unreleased\n".length).trim() ?? "";
  return /^- /m.test(body) ? body : "";
}

/**
 * The release notes. A build made from a tree with changes after its version (a `## Unreleased`
 * section with items) carries them first, said as such: notes that describe only the version
 * named would describe a binary other than the one they come with.
 */
export function releaseNotes(r: Release, unreleased = ""): string {
  const later = unreleased
    ? `## In this build, after ${r.version}

This build carries changes not yet in a release, listed first; the notes of ${r.version} follow.

${unreleased}

## ${r.version}

`
    : "";
  return `# parkd ${r.version} (${r.date})

${later}${r.body}

## Files

| file | for |
|---|---|
| \`parkd-${r.version}-linux-x64\` | x86-64 with AVX2 (Haswell, 2013, and later) |
| \`parkd-${r.version}-linux-x64-baseline\` | any x86-64 (older kiosk and car-park hardware) |
| \`parkd-${r.version}-linux-arm64\` | 64-bit ARM (Raspberry Pi 3 and later with a 64-bit OS, industrial ARM boards) |
| \`parkd_${r.version}_amd64.deb\` | Debian and Ubuntu on x86-64 (carries the baseline build) |
| \`parkd_${r.version}_arm64.deb\` | Debian and Ubuntu on 64-bit ARM |

Check the downloads with \`sha256sum -c SHA256SUMS --ignore-missing\`. Install, upgrade and
roll back: docs/operations.md.
`;
}

/** Debian's changelog format (deb-changelog(5)); backticks dropped, items wrapped at 80. */
export function debianChangelog(releases: Release[]): string {
  return releases
    .map((r) => {
      const items = r.items.map((i) => wrap(i.replace(/`/g, ""), 80, "  * ", "    ")).join("\n");
      const date = new Date(`${r.date}T12:00:00Z`).toUTCString().replace("GMT", "+0000");
      return `parkd (${r.version}) unstable; urgency=medium\n\n${items}\n\n -- ${DEBIAN_MAINTAINER}  ${date}\n`;
    })
    .join("\n");
}

if (import.meta.main) {
  const [what, version] = process.argv.slice(2);
  const text = readFileSync(join(import.meta.dir, "../docs/changelog.md"), "utf8");
  const releases = parseChangelog(text);
  const mine = releases.find((r) => r.version === version);
  if (!mine || (what !== "notes" && what !== "debian-changelog")) {
    process.stderr.write(
      mine
        ? "usage: bun deploy/release-notes.ts notes|debian-changelog VERSION\n"
        : `docs/changelog.md has no section "## ${version} (YYYY-MM-DD)": write the release's notes there first\n`,
    );
    process.exit(1);
  }
  process.stdout.write(
    // The file is newest first: this release and the ones before it.
    what === "notes"
      ? releaseNotes(mine, mine === releases[0] ? unreleasedOf(text) : "")
      : debianChangelog(releases.slice(releases.indexOf(mine))),
  );
}
