import { describe, expect, test } from "bun:test";
import { type OptionSpec, parseArgs, UsageError } from "../../src/cli/args.ts";
import { dispatch } from "../../src/cli/command.ts";

const specs: OptionSpec[] = [
  { name: "port", type: "string", help: "" },
  { name: "http", type: "boolean", help: "" },
  { name: "scope", type: "list", help: "" },
  { name: "data-dir", type: "string", help: "", default: "./data" },
];

const usage = (argv: string[], env: Record<string, string> = {}, max = 0) => {
  try {
    parseArgs(argv, specs, env, max);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  return "ok";
};

describe("flags (node:util parseArgs, strict)", () => {
  test("what is given, then the environment, then the default", () => {
    expect(parseArgs(["--port", "9000", "--scope", "a", "--scope=b"], specs, {}).values).toEqual({
      port: "9000",
      scope: ["a", "b"],
      "data-dir": "./data",
    });
    const fromEnv = parseArgs([], specs, { PARKD_PORT: "7", PARKD_HTTP: "yes", PARKD_SCOPE: "a, b" }).values;
    expect(fromEnv).toEqual({ port: "7", http: true, scope: ["a", "b"], "data-dir": "./data" });
    expect(parseArgs(["--port", "8"], specs, { PARKD_PORT: "7" }).values.port).toBe("8");
  });

  test("unknown flags, short or long, are usage errors", () => {
    expect(usage(["-p", "22084"])).toBe("unknown option -p");
    expect(usage(["--prot", "1"])).toBe("unknown option --prot");
  });

  test("stray words are usage errors; a command takes as many as its usage names", () => {
    expect(usage(["--port", "1", "stray"])).toBe("unexpected argument stray");
    expect(usage(["FILE"], {}, 1)).toBe("ok");
    expect(usage(["FILE", "more"], {}, 1)).toBe("unexpected argument more");
  });

  test("a flag without its value, or a value on a switch, is a usage error", () => {
    expect(usage(["--port"])).toBe("--port needs a value");
    expect(usage(["--http=1"])).toBe("--http takes no value");
  });

  test("a PARKD_ switch must say true or false", () => {
    expect(usage([], { PARKD_HTTP: "maybe" })).toContain("PARKD_HTTP must be true or false");
    expect(parseArgs([], specs, { PARKD_HTTP: "off" }).values.http).toBe(false);
  });
});

describe("dispatch", () => {
  test("usage errors exit 2 with the reason on stderr", async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      errors.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const root = {
        name: "parkd",
        summary: "",
        subcommands: [{ name: "serve", summary: "", options: specs, run: () => 0 }],
      };
      expect(await dispatch(root, ["serve", "-p", "1"])).toBe(2);
      expect(await dispatch(root, ["serve", "stray"])).toBe(2);
      expect(await dispatch(root, ["serve", "--port", "1"])).toBe(0);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join("")).toContain("unknown option -p");
    expect(errors.join("")).toContain("unexpected argument stray");
  });
});
