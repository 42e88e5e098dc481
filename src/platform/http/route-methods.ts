import { templatePattern } from "./path-template.ts";

export interface RouteEntry {
  method: string;
  path: string;
}

/**
 * For a path no route took with its method: the template that matches it and the methods it
 * takes (HEAD wherever GET is, as the router answers it), so a wrong method gets 405 with
 * `Allow` rather than 404. The templates are compiled again only when the route list grows.
 */
export function routeMethods(routes: () => readonly RouteEntry[]) {
  let compiled: { re: RegExp; template: string; methods: Set<string> }[] = [];
  let seen = -1;
  const compile = () => {
    const byTemplate = new Map<string, Set<string>>();
    for (const r of routes()) {
      const methods = byTemplate.get(r.path) ?? new Set<string>();
      methods.add(r.method.toUpperCase());
      if (r.method.toUpperCase() === "GET") methods.add("HEAD");
      byTemplate.set(r.path, methods);
    }
    compiled = [...byTemplate].map(([template, methods]) => ({
      template,
      methods,
      re: templatePattern(template),
    }));
  };
  return (path: string): { template: string; methods: string[] } | undefined => {
    const count = routes().length;
    if (count !== seen) {
      compile();
      seen = count;
    }
    for (const c of compiled) if (c.re.test(path)) return { template: c.template, methods: [...c.methods] };
    return undefined;
  };
}
