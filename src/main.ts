// A compiled binary starts in development mode; Elysia and friends must see production.
process.env.NODE_ENV = "production";

const { dispatch } = await import("./cli/command.ts");
const { rootCommand } = await import("./cli/index.ts");

try {
  process.exitCode = await dispatch(rootCommand, process.argv.slice(2));
} catch (e) {
  process.stderr.write(`parkd: ${(e as Error).message ?? String(e)}\n`);
  process.exitCode = 1;
}

export {};
