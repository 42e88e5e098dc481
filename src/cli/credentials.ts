import { Problem } from "../domain/errors.ts";
import { CredentialService, tokenView, userView } from "../modules/admin/index.ts";
import { openStore } from "../platform/store/db.ts";
import { listOpt, parseDuration, stringOpt, UsageError } from "./args.ts";
import { type Command, dataDirOption, fail, isoOrDash, jsonOption, printTable } from "./command.ts";

function withCredentials<T>(
  dataDir: string | undefined,
  fn: (c: CredentialService) => T | Promise<T>,
): Promise<T> {
  const store = openStore(dataDir ?? "./data", { create: false });
  const service = new CredentialService(store);
  return Promise.resolve(fn(service)).finally(() => store.close());
}

async function guarded(fn: () => Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof Problem) return fail(e.message);
    throw e;
  }
}

const scopeOption = {
  name: "scope",
  type: "list" as const,
  valueName: "SCOPE",
  help: "tickets:write, permits:read, notices:write or admin",
};

export const tokenCommand: Command = {
  name: "token",
  summary: "Create, list and revoke Bearer tokens",
  subcommands: [
    {
      name: "create",
      summary: "Create a token and print it (alone, once) on stdout",
      options: [
        { name: "name", type: "string", valueName: "NAME", help: "who or what uses the token" },
        scopeOption,
        {
          name: "expires-in",
          type: "string",
          valueName: "DURATION",
          help: "lifetime such as 90d, 12h, 2w (default: no expiry)",
        },
        dataDirOption,
      ],
      run: (v) =>
        guarded(async () => {
          const name = stringOpt(v, "name");
          if (!name) throw new UsageError("--name is required");
          const expires = stringOpt(v, "expires-in");
          const expiresInMs = expires ? parseDuration(expires) : undefined;
          const { id, token } = await withCredentials(stringOpt(v, "data-dir"), (c) =>
            c.createToken({ name, scopes: listOpt(v, "scope"), expiresInMs }),
          );
          process.stderr.write(`created token ${id} "${name}"; it is shown once, keep it now\n`);
          process.stdout.write(`${token}\n`);
          return 0;
        }),
    },
    {
      name: "list",
      summary: "List tokens (never the tokens themselves)",
      options: [jsonOption, dataDirOption],
      run: (v) =>
        withCredentials(stringOpt(v, "data-dir"), (c) => {
          const now = Date.now();
          const tokens = c.listTokens();
          if (v.json) process.stdout.write(`${JSON.stringify(tokens.map(tokenView), null, 2)}\n`);
          else
            printTable(
              tokens.map((t) => ({
                id: t.id,
                name: t.name,
                scopes: t.scopes.join(","),
                created: isoOrDash(t.createdAt),
                "last used": isoOrDash(t.lastUsedAt),
                expires: isoOrDash(t.expiresAt),
                // A token retired at its expiry (its name reused) shows as what it was: expired.
                status:
                  t.expiresAt !== null && t.expiresAt <= now && (t.revokedAt ?? t.expiresAt) >= t.expiresAt
                    ? "expired"
                    : t.revokedAt
                      ? "revoked"
                      : "active",
              })),
              ["id", "name", "scopes", "created", "last used", "expires", "status"],
            );
          return 0;
        }),
    },
    {
      name: "revoke",
      summary: "Revoke a token at once",
      args: "<id|name>",
      options: [dataDirOption],
      run: (v, [target]) =>
        guarded(async () => {
          if (!target) throw new UsageError("name the token to revoke by id or name");
          const id = await withCredentials(stringOpt(v, "data-dir"), (c) => c.revokeToken(target));
          process.stderr.write(`revoked token ${id}\n`);
          return 0;
        }),
    },
  ],
};

async function readStdin(): Promise<string> {
  return (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "");
}

export const userCommand: Command = {
  name: "user",
  summary: "Create, list and delete Basic-auth users (for terminals without Bearer support)",
  subcommands: [
    {
      name: "create",
      summary: "Create a user; the password is read from standard input",
      options: [
        { name: "name", type: "string", valueName: "NAME", help: "user name" },
        scopeOption,
        { name: "password-stdin", type: "boolean", help: "read the password from standard input (required)" },
        dataDirOption,
      ],
      run: (v) =>
        guarded(async () => {
          const name = stringOpt(v, "name");
          if (!name) throw new UsageError("--name is required");
          if (!v["password-stdin"])
            throw new UsageError("--password-stdin is required: passwords never go on the command line");
          const password = await readStdin();
          const { id } = await withCredentials(stringOpt(v, "data-dir"), (c) =>
            c.createUser({ name, scopes: listOpt(v, "scope"), password }),
          );
          process.stderr.write(`created user ${id} "${name}"\n`);
          return 0;
        }),
    },
    {
      name: "list",
      summary: "List users",
      options: [jsonOption, dataDirOption],
      run: (v) =>
        withCredentials(stringOpt(v, "data-dir"), (c) => {
          const users = c.listUsers();
          if (v.json) process.stdout.write(`${JSON.stringify(users.map(userView), null, 2)}\n`);
          else
            printTable(
              users.map((u) => ({
                id: u.id,
                name: u.name,
                scopes: u.scopes.join(","),
                created: isoOrDash(u.createdAt),
                "last used": isoOrDash(u.lastUsedAt),
              })),
              ["id", "name", "scopes", "created", "last used"],
            );
          return 0;
        }),
    },
    {
      name: "delete",
      summary: "Delete a user at once",
      args: "<id|name>",
      options: [dataDirOption],
      run: (v, [target]) =>
        guarded(async () => {
          if (!target) throw new UsageError("name the user to delete by id or name");
          const id = await withCredentials(stringOpt(v, "data-dir"), (c) => c.deleteUser(target));
          process.stderr.write(`deleted user ${id}\n`);
          return 0;
        }),
    },
  ],
};
