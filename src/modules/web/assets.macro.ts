import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PLATE_READER_FILES } from "../../client/plate-reader/files.ts";

const CLIENT = join(import.meta.dir, "../../client");

/** Bun.build cannot run inside a macro (the bundler waits on it), so the CLI bundles instead. */
function bundle(entry: string): string {
  const r = Bun.spawnSync(
    [
      process.execPath,
      "build",
      join(CLIENT, entry),
      "--target=browser",
      "--format=esm",
      ...(process.env.PARKD_CLIENT_NAMES ? ["--minify-whitespace", "--minify-syntax"] : ["--minify"]),
    ],
    { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
  );
  if (r.exitCode !== 0) throw new Error(`bundling ${entry} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/**
 * Runs at bundle time (imported with `type: "macro"`): the browser code is bundled and the
 * stylesheet and icon read then, so the binary carries the whole web app as strings.
 */
export function clientAssets(): {
  appJs: string;
  swJs: string;
  css: string;
  icon: string;
  boardJs: string;
  boardCss: string;
} {
  return {
    appJs: bundle("main.ts"),
    boardJs: bundle("board.ts"),
    boardCss: readFileSync(join(CLIENT, "board.css"), "utf8"),
    swJs: bundle("sw.ts"),
    css: readFileSync(join(CLIENT, "styles.css"), "utf8"),
    icon: readFileSync(join(CLIENT, "icon.svg"), "utf8"),
  };
}

/**
 * The plate reader's files, named as one: a new engine (another package version) gets a new
 * address, so a phone's kept copy is never a mix of two engines' files.
 */
export function plateReaderTag(): string {
  const hash = createHash("sha256");
  for (const f of PLATE_READER_FILES) hash.update(f.name).update(readFileSync(join(CLIENT, "../..", f.from)));
  return hash.digest("base64url").slice(0, 12);
}
