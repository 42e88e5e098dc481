import { PathTable } from "./path-template.ts";

export interface RouteEntry {
  method: string;
  path: string;
}

/**
 * For a path no route took with its method: the template that matches it and the methods it
 * takes (HEAD wherever GET is, as the router answers it), so a wrong method gets 405 with
 * `Allow` rather than 404. The templates are read again only when the route list grows.
 */
export function routeMethods(routes: () => readonly RouteEntry[]) {
  let table = new PathTable<Set<string>>([]);
  let seen = -1;
  const compile = () => {
    const byTemplate = new Map<string, Set<string>>();
    for (const r of routes()) {
      const methods = byTemplate.get(r.path) ?? new Set<string>();
      methods.add(r.method.toUpperCase());
      if (r.method.toUpperCase() === "GET") methods.add("HEAD");
      byTemplate.set(r.path, methods);
    }
    table = new PathTable([...byTemplate].map(([template, value]) => ({ method: ANY, template, value })));
  };
  return (path: string): { template: string; methods: string[] } | undefined => {
    const count = routes().length;
    if (count !== seen) {
      compile();
      seen = count;
    }
    const found = table.find(ANY, path);
    return found && { template: found.template, methods: [...found.value] };
  };
}

/** The table's one "method": the question is which methods a path takes. */
const ANY = "*";
