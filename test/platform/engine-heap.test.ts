import { describe, expect, test } from "bun:test";
import { ENGINE_RAM_VARIABLE, type ProcessStart, restartArgs } from "../../src/platform/engine-heap.ts";

const compiled = (words: string[], env: ProcessStart["env"] = {}): ProcessStart => ({
  argv: ["bun", "/$bunfs/root/parkd", ...words],
  execArgv: ["--smol"],
  main: "/$bunfs/root/parkd",
  env,
});

const source = (words: string[], env: ProcessStart["env"] = {}): ProcessStart => ({
  argv: ["/usr/bin/bun", "/src/main.ts", ...words],
  execArgv: ["--smol"],
  main: "/src/main.ts",
  env,
});

describe("serve starts again with the engine sized", () => {
  const cases: [string, ProcessStart, string[] | null][] = [
    // The binary applies its own runtime options again: only the words follow its path.
    [
      "compiled serve",
      compiled(["serve", "--http", "--port", "8080"]),
      ["serve", "--http", "--port", "8080"],
    ],
    ["compiled serve, sized already", compiled(["serve"], { [ENGINE_RAM_VARIABLE]: "1073741824" }), null],
    // An operator's own value, even an odd one, is theirs: the engine judges it.
    ["compiled serve, operator's empty value", compiled(["serve"], { [ENGINE_RAM_VARIABLE]: "" }), null],
    ["compiled token create", compiled(["token", "create", "--name", "x"]), null],
    ["compiled, no command", compiled([]), null],
    ["compiled, serve as an argument", compiled(["token", "create", "--name", "serve"]), null],
    ["source serve", source(["serve", "--http"]), ["--smol", "/src/main.ts", "serve", "--http"]],
    ["source migrate", source(["migrate"]), null],
  ];
  for (const [name, start, want] of cases) test(name, () => expect(restartArgs(start)).toEqual(want));
});
