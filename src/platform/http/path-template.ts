/**
 * The one reading of a route template (`/api/v1/parkings/:id`, `/assets/*`) as the request paths
 * it matches: each `:param` one path segment, `*` the rest. The router's own templates, so that
 * what the front end decides before routing (a direct answer, a raw body's limit, a rate-limit
 * class, 405 and `Allow`) is decided for the paths the router gives that route.
 */
export function templatePattern(template: string, opts: { trailingSlash?: boolean } = {}): RegExp {
  const parts = template
    .split("/")
    .map((part) =>
      part.startsWith(":") ? "([^/]+)" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    );
  return new RegExp(`^${parts.join("/")}${opts.trailingSlash === false ? "" : "/?"}$`);
}

/** A path a table matched: the entry's value and template, and the path's parameters by name. */
export interface PathMatch<T> {
  readonly value: T;
  readonly template: string;
  readonly params: Readonly<Record<string, string>>;
}

interface Templated<T> {
  readonly value: T;
  readonly template: string;
  /** The template up to its first parameter: most paths are told apart by it, without a regex. */
  readonly prefix: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Route templates by method, for the front end's questions before the router's: an exact
 * template is one map lookup (no string made per request), a templated one is tried only past
 * its static prefix. `trailingSlash` (the default) takes `/x/` for `/x`, as the router does.
 */
export class PathTable<T> {
  private readonly exact = new Map<string, Map<string, PathMatch<T>>>();
  private readonly templated = new Map<string, Templated<T>[]>();
  private readonly trailingSlash: boolean;

  constructor(
    entries: Iterable<{ readonly method: string; readonly template: string; readonly value: T }>,
    opts: { trailingSlash?: boolean } = {},
  ) {
    this.trailingSlash = opts.trailingSlash !== false;
    for (const { method, template, value } of entries) {
      const cut = template.search(/[:*]/);
      if (cut < 0) {
        const paths = this.exact.get(method) ?? new Map<string, PathMatch<T>>();
        if (paths.has(template)) throw new Error(`${method} ${template} is in the table twice`);
        paths.set(template, { value, template, params: NO_PARAMS });
        this.exact.set(method, paths);
        continue;
      }
      const list = this.templated.get(method) ?? [];
      list.push({
        value,
        template,
        prefix: template.slice(0, cut),
        pattern: templatePattern(template, { trailingSlash: this.trailingSlash }),
        names: template
          .split("/")
          .filter((part) => part.startsWith(":"))
          .map((part) => part.slice(1)),
      });
      this.templated.set(method, list);
    }
  }

  /** The entry of `method` whose template takes `path` (a path without its query). */
  find(method: string, path: string): PathMatch<T> | undefined {
    const paths = this.exact.get(method);
    if (paths) {
      // One trailing slash, as the router takes it: `/x/` is `/x`, but `//` is not `/`.
      const hit =
        paths.get(path) ??
        (this.trailingSlash && path.length > 1 && path.endsWith("/") && !path.endsWith("//")
          ? paths.get(path.slice(0, -1))
          : undefined);
      if (hit) return hit;
    }
    const list = this.templated.get(method);
    if (!list) return undefined;
    for (const t of list) {
      if (!path.startsWith(t.prefix)) continue;
      const m = t.pattern.exec(path);
      if (!m) continue;
      if (t.names.length === 0) return { value: t.value, template: t.template, params: NO_PARAMS };
      const params: Record<string, string> = {};
      t.names.forEach((name, i) => {
        params[name] = m[i + 1]!;
      });
      return { value: t.value, template: t.template, params };
    }
    return undefined;
  }
}
