import { describe, expect, test } from "bun:test";
import {
  ENGINE_RAM_VARIABLE,
  type EngineSizing,
  engineSizing,
  type ProcessStart,
} from "../../src/platform/engine-heap.ts";

const compiled = (
  words: string[],
  env: ProcessStart["env"] = {},
  execPath = "/usr/local/bin/parkd",
): ProcessStart => ({
  argv: ["bun", "/$bunfs/root/parkd", ...words],
  execArgv: ["--smol"],
  main: "/$bunfs/root/parkd",
  execPath,
  env,
});

const source = (words: string[], env: ProcessStart["env"] = {}): ProcessStart => ({
  argv: ["/usr/bin/bun", "/src/main.ts", ...words],
  execArgv: ["--smol"],
  main: "/src/main.ts",
  execPath: "/usr/bin/bun",
  env,
});

const sized = (env: string) => ({ [ENGINE_RAM_VARIABLE]: env });

describe("serve starts again with the engine sized", () => {
  const cases: [string, ProcessStart, EngineSizing][] = [
    // The binary applies its own runtime options again: only the words follow its path.
    [
      "compiled serve",
      compiled(["serve", "--http", "--port", "8080"]),
      { restart: ["serve", "--http", "--port", "8080"] },
    ],
    ["compiled serve, sized already", compiled(["serve"], sized("1073741824")), null],
    ["compiled serve, the engine's own sizing", compiled(["serve"], sized("0")), null],
    ["compiled token create", compiled(["token", "create", "--name", "x"]), null],
    ["compiled, no command", compiled([]), null],
    ["compiled, serve as an argument", compiled(["token", "create", "--name", "serve"]), null],
    // The loader's path is the process's file: starting it with "serve" would load "serve".
    ["through ld-linux", compiled(["serve"], {}, "/usr/lib64/ld-linux-x86-64.so.2"), null],
    ["through ld-musl", compiled(["serve"], {}, "/lib/ld-musl-x86_64.so.1"), null],
    ["a binary named like no loader", compiled(["serve"], {}, "/opt/ldap-parkd"), { restart: ["serve"] }],
    ["source serve", source(["serve", "--http"]), { restart: ["--smol", "/src/main.ts", "serve", "--http"] }],
    ["source migrate", source(["migrate"]), null],
  ];
  for (const [name, start, want] of cases) test(name, () => expect(engineSizing(start)).toEqual(want));

  // The engine reads digits up to the first other character and takes the rest silently.
  for (const odd of ["1G", "256M", "1e9", "0x10000000", "-1", " 268435456", "268435456 "])
    test(`a size the engine would misread is refused: ${JSON.stringify(odd)}`, () => {
      const sizing = engineSizing(compiled(["serve"], sized(odd)));
      expect(sizing).toEqual({ refuse: expect.stringContaining("whole number of bytes") });
    });
  test("other commands leave an odd size to the engine", () =>
    expect(engineSizing(compiled(["version"], sized("1G")))).toBeNull());
});
