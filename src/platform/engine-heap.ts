import { basename } from "node:path";
import { log } from "./log.ts";

/**
 * The JavaScript engine sizes its garbage collector from the machine's RAM: on a big machine it
 * lets a busy server's garbage grow well past parkd's 200 MB budget between its own collections,
 * whatever the server's live data. It reads the size it should assume (`BUN_JSC_forceRAMSize`)
 * once, when the process starts; so `serve` starts itself again in place (execve: same pid,
 * nothing else has run yet) with the engine told to size for a box of `ENGINE_RAM_BYTES`. The
 * runtime closes descriptors other than 0-2 on the way, so a launcher that hands `serve` one (or
 * holds a lock through it) sets the variable itself, as the systemd unit does. An operator who
 * sets it keeps their own value; 0 is the engine's own sizing. An engine that no longer knows the
 * option refuses to start ("invalid JSC environment variable"), so a runtime upgrade that drops
 * it fails every binary test rather than passing silently. (docs/operations.md "Memory")
 */

export const ENGINE_RAM_VARIABLE = "BUN_JSC_forceRAMSize";
export const ENGINE_RAM_BYTES = 256 * 1024 * 1024;

export interface ProcessStart {
  /** process.argv: the runtime, the entry (for a compiled binary, a path inside it), the words. */
  argv: readonly string[];
  /** Runtime options the process started with (a compiled binary applies its own again). */
  execArgv: readonly string[];
  /** The entry's path: inside the binary ("/$bunfs/...") when compiled. */
  main: string;
  /** The file the process runs: the binary, the runtime, or a dynamic loader that was asked to run either. */
  execPath: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * What `serve` does about the engine's size: start again with these arguments after the
 * program's path, refuse a size the engine would misread, or start as is.
 */
export type EngineSizing = { restart: string[] } | { refuse: string } | null;

export function engineSizing(start: ProcessStart): EngineSizing {
  const words = start.argv.slice(2);
  if (words[0] !== "serve") return null;
  const own = start.env[ENGINE_RAM_VARIABLE];
  if (own !== undefined) {
    // The engine reads digits up to the first other character: "1G" would be a box of 1 byte.
    // (An empty value the engine refuses by itself, before this runs.)
    if (!/^[0-9]+$/.test(own))
      return {
        refuse: `${ENGINE_RAM_VARIABLE} must be a whole number of bytes (1073741824 for 1 GB; 0 for the engine's own sizing), not "${own}"`,
      };
    return null;
  }
  // Started through the dynamic loader (ld-linux, ld-musl: a way round a noexec mount), the
  // process's file is the loader, which would take "serve" for a program to load.
  if (/^ld[-.]/.test(basename(start.execPath))) return null;
  const compiled = start.main.startsWith("/$bunfs/");
  return { restart: compiled ? words : [...start.execArgv, ...start.argv.slice(1)] };
}

/** Starts this process again in place with the engine sized, when `serve` runs without it. */
export function sizeEngineHeap(): void {
  const sizing = engineSizing({
    argv: process.argv,
    execArgv: process.execArgv,
    main: Bun.main,
    execPath: process.execPath,
    env: process.env,
  });
  if (sizing === null) return;
  if ("refuse" in sizing) {
    process.stderr.write(`parkd: ${sizing.refuse}\n`);
    process.exit(2);
  }
  // The runtime warns that execve is experimental (on stderr, outside the JSON log) when it
  // returns, that is when it failed; the failure is logged below instead.
  const warn = process.emitWarning;
  try {
    if (!process.execve) throw new Error("this runtime cannot start a program in place");
    process.emitWarning = () => {};
    process.execve(process.execPath, [process.execPath, ...sizing.restart], {
      ...process.env,
      [ENGINE_RAM_VARIABLE]: String(ENGINE_RAM_BYTES),
    });
  } catch (e) {
    // Serving with the engine's own sizing beats not serving.
    log("warning", "could not start again with the engine sized for a small box; serving as is", {
      engineRamBytes: ENGINE_RAM_BYTES,
      error: (e as Error).message,
    });
  } finally {
    process.emitWarning = warn;
  }
}
