/**
 * The one reading of a route template (`/api/v1/parkings/:id`, `/assets/*`) as the request paths
 * it matches: each `:param` one path segment, `*` the rest. The router's own templates, so that
 * what the front end decides before routing (a raw body's limit, a rate-limit class, 405 and
 * `Allow`) is decided for the paths the router gives that route.
 */
export function templatePattern(template: string, opts: { trailingSlash?: boolean } = {}): RegExp {
  const parts = template
    .split("/")
    .map((part) =>
      part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    );
  return new RegExp(`^${parts.join("/")}${opts.trailingSlash === false ? "" : "/?"}$`);
}
