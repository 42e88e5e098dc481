/**
 * The API reference as one self-contained HTML page, rendered on the server from the OpenAPI
 * document: inline CSS, no script, no font or CDN, and the only link out of the page is the
 * relative `openapi.json`. A handheld on a closed site network renders it as it is.
 */

type Json = Record<string, unknown>;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const CSS = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f7f8fa}
header{background:#1d2430;color:#fff;padding:1.2rem 2rem}header h1{margin:0;font-size:1.4rem}
header p{margin:.3rem 0 0;color:#c8cfdb}header a{color:#9cc3ff}
main{display:grid;grid-template-columns:16rem 1fr;gap:2rem;padding:1.5rem 2rem;max-width:90rem}
nav{position:sticky;top:1rem;align-self:start;font-size:.9rem}nav ul{list-style:none;padding:0;margin:0 0 1rem}
nav a{color:#1d2430;text-decoration:none;display:block;padding:.1rem 0}nav a:hover{text-decoration:underline}
nav h3{margin:.8rem 0 .2rem;font-size:.8rem;text-transform:uppercase;color:#667}
section.op{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:1rem 1.2rem;margin:0 0 1.2rem}
h2.tag{margin:1.5rem 0 .8rem;text-transform:capitalize}
.m{display:inline-block;min-width:4.2rem;text-align:center;font-weight:700;font-size:.8rem;border-radius:4px;padding:.1rem .4rem;color:#fff;margin-right:.5rem}
.get{background:#2f7d32}.post{background:#1565c0}.put{background:#8e5b00}.patch{background:#6a4c93}.delete{background:#b3261e}
.head,.options,.trace{background:#555}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f1f3f6;border-radius:4px;padding:.6rem;overflow:auto;max-height:28rem}
table{border-collapse:collapse;margin:.4rem 0}td,th{border:1px solid #dde1e7;padding:.25rem .5rem;text-align:left;vertical-align:top}
.auth{font-size:.9rem;color:#444}.none{color:#2f7d32}.scope{background:#fff4d6;border-radius:3px;padding:0 .3rem}
details summary{cursor:pointer;color:#335}
@media (max-width:50rem){main{grid-template-columns:1fr}nav{position:static}}
`;

function anchor(method: string, path: string): string {
  return `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, "-")}`;
}

function schemaBlock(schema: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}

function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`)
    .join("");
}

interface Op {
  method: string;
  path: string;
  op: Json;
}

function renderOperation({ method, path, op }: Op): string {
  const parts: string[] = [];
  parts.push(
    `<section class="op" id="${anchor(method, path)}"><h3><span class="m ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code></h3>`,
  );
  if (typeof op.summary === "string") parts.push(`<p><strong>${escapeHtml(op.summary)}</strong></p>`);
  if (typeof op.description === "string") parts.push(`<div class="auth">${paragraphs(op.description)}</div>`);
  const params = (op.parameters as Json[] | undefined) ?? [];
  if (params.length) {
    parts.push("<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>");
    for (const p of params)
      parts.push(
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td><td>${p.required ? "yes" : "no"}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
      );
    parts.push("</table>");
  }
  const body = op.requestBody as Json | undefined;
  if (body) {
    const content = (body.content ?? {}) as Record<string, Json>;
    for (const [type, media] of Object.entries(content))
      parts.push(`<h4>Request body <code>${escapeHtml(type)}</code></h4>${schemaBlock(media.schema)}`);
  }
  const responses = (op.responses ?? {}) as Record<string, Json>;
  parts.push("<h4>Responses</h4><table><tr><th>status</th><th>meaning</th><th>body</th></tr>");
  for (const [status, r] of Object.entries(responses)) {
    const content = (r.content ?? {}) as Record<string, Json>;
    const bodies = Object.entries(content).map(([type, media]) => {
      const schema = media.schema as Json | undefined;
      const ref = typeof schema?.$ref === "string" ? schema.$ref.split("/").pop() : undefined;
      if (ref)
        return `<code>${escapeHtml(type)}</code> <a href="#schema-${escapeHtml(ref)}">${escapeHtml(ref)}</a>`;
      if (!schema) return `<code>${escapeHtml(type)}</code>`;
      return `<code>${escapeHtml(type)}</code><details><summary>schema</summary>${schemaBlock(schema)}</details>`;
    });
    parts.push(
      `<tr><td>${escapeHtml(status)}</td><td>${escapeHtml(String(r.description ?? ""))}</td><td>${bodies.join("<br>")}</td></tr>`,
    );
  }
  parts.push("</table></section>");
  return parts.join("");
}

export function renderDocsPage(doc: Json): string {
  const info = (doc.info ?? {}) as Json;
  const title = `${String(info.title ?? "API")} ${String(info.version ?? "")}`.trim();
  const ops: Op[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>))
    for (const [method, op] of Object.entries(item)) ops.push({ method, path, op: op as Json });
  const byTag = new Map<string, Op[]>();
  for (const o of ops) {
    const tag = String(((o.op.tags as string[] | undefined) ?? ["other"])[0]);
    const list = byTag.get(tag) ?? [];
    list.push(o);
    byTag.set(tag, list);
  }
  const tags = [...byTag.keys()].sort();
  const nav = tags
    .map(
      (tag) =>
        `<h3>${escapeHtml(tag)}</h3><ul>${byTag
          .get(tag)!
          .map(
            (o) =>
              `<li><a href="#${anchor(o.method, o.path)}"><span class="m ${o.method}">${o.method.toUpperCase()}</span>${escapeHtml(o.path)}</a></li>`,
          )
          .join("")}</ul>`,
    )
    .join("");
  const sections = tags
    .map((tag) => `<h2 class="tag">${escapeHtml(tag)}</h2>${byTag.get(tag)!.map(renderOperation).join("")}`)
    .join("");
  const components = (doc.components ?? {}) as Json;
  const schemas = Object.entries((components.schemas ?? {}) as Record<string, unknown>)
    .map(
      ([name, s]) =>
        `<section class="op" id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${schemaBlock(s)}</section>`,
    )
    .join("");
  const schemes = Object.entries((components.securitySchemes ?? {}) as Record<string, Json>)
    .map(
      ([name, s]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(String(s.description ?? s.scheme ?? ""))}</td></tr>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><header><h1>${escapeHtml(title)}</h1><p>${escapeHtml(String(info.description ?? ""))} Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${escapeHtml(String(doc.openapi))}).</p></header>
<main><nav>${nav}<h3>shapes</h3><ul><li><a href="#auth">Authentication</a></li>${Object.keys(
    (components.schemas ?? {}) as Json,
  )
    .map((n) => `<li><a href="#schema-${escapeHtml(n)}">${escapeHtml(n)}</a></li>`)
    .join("")}</ul></nav>
<div>${sections}<h2 class="tag" id="auth">Authentication</h2><section class="op"><table><tr><th>scheme</th><th>how</th></tr>${schemes}</table>
<p>Scopes: <span class="scope">tickets:write</span> ticket intake, <span class="scope">permits:read</span> attendant lookups, <span class="scope">admin</span> everything.</p></section>
<h2 class="tag">Shapes</h2>${schemas}</div></main></body></html>
`;
}
