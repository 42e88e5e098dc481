/**
 * The JavaScript engine sizes its garbage collector from the machine's RAM: on a big machine it
 * lets a busy server's garbage grow well past parkd's 200 MB budget between its own collections,
 * whatever the server's live data. It reads the size it should assume (`BUN_JSC_forceRAMSize`)
 * once, when the process starts; so `serve` starts itself again in place (execve: same pid, same
 * descriptors, nothing else has run yet) with the engine told to size for a box of
 * `ENGINE_RAM_BYTES`. An operator who sets the variable keeps their own value. An engine that no
 * longer knows the option refuses to start ("invalid JSC environment variable"), so a runtime
 * upgrade that drops it fails every binary test rather than passing silently.
 * (docs/operations.md "Memory", bench/notes.md)
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
  env: Readonly<Record<string, string | undefined>>;
}

/** The argument list to start `serve` again with, after the program's path; null: start as is. */
export function restartArgs(start: ProcessStart): string[] | null {
  const words = start.argv.slice(2);
  if (words[0] !== "serve" || start.env[ENGINE_RAM_VARIABLE] !== undefined) return null;
  const compiled = start.main.startsWith("/$bunfs/");
  return compiled ? words : [...start.execArgv, ...start.argv.slice(1)];
}

/** Starts this process again in place with the engine sized, when `serve` runs without it. */
export function sizeEngineHeap(): void {
  const args = restartArgs({
    argv: process.argv,
    execArgv: process.execArgv,
    main: Bun.main,
    env: process.env,
  });
  if (!args) return;
  try {
    if (!process.execve) throw new Error("this runtime cannot start a program in place");
    process.execve(process.execPath, [process.execPath, ...args], {
      ...process.env,
      [ENGINE_RAM_VARIABLE]: String(ENGINE_RAM_BYTES),
    });
  } catch (e) {
    // Serving with the engine's own sizing beats not serving.
    process.stderr.write(
      `parkd: could not start again with the engine sized for ${ENGINE_RAM_BYTES / 2 ** 20} MB (${(e as Error).message}); serving as is\n`,
    );
  }
}
