/**
 * The API reference as one self-contained HTML page, rendered on the server from the OpenAPI
 * document: inline CSS, no script, no font or CDN, and the only link out of the page is the
 * relative `openapi.json`. A handheld on a closed site network renders it as it is. Sections
 * follow the document's tag order (intake, lookups, lots, then the rest); every body is shown
 * as a table of fields, with an example.
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

// Grid and flex children get min-width:0 and long words may break anywhere, so no card is ever
// wider than the screen; wide tables scroll inside their card instead.
const CSS = `
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f7f8fa}
header{background:#1d2430;color:#fff;padding:1rem 1.2rem}header h1{margin:0;font-size:1.3rem}
header p{margin:.3rem 0 0;color:#c8cfdb}header a{color:#9cc3ff}
main{display:grid;grid-template-columns:minmax(0,15rem) minmax(0,1fr);gap:1.5rem;padding:1.2rem;max-width:84rem;margin:0 auto}
main>*{min-width:0}
nav{position:sticky;top:.5rem;align-self:start;font-size:.85rem;max-height:calc(100vh - 1rem);overflow:auto}
nav ul{list-style:none;padding:0;margin:0 0 .6rem}nav li{margin:.1rem 0}
nav a{color:#1d2430;text-decoration:none;overflow-wrap:anywhere}nav a:hover{text-decoration:underline}
nav h3{margin:.7rem 0 .2rem;font-size:.75rem;text-transform:uppercase;color:#667}
nav summary{font-weight:600;cursor:pointer}
section.op{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:.9rem 1rem;margin:0 0 1rem;min-width:0;overflow-wrap:break-word}
section.op h3{margin:0 0 .4rem;font-size:1.05rem;display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
h2.tag{margin:1.4rem 0 .2rem;text-transform:capitalize}p.tagdesc{margin:0 0 .8rem;color:#445}
h4{margin:.9rem 0 .3rem}
.m{display:inline-block;min-width:3.8rem;text-align:center;font-weight:700;font-size:.75rem;border-radius:4px;padding:.1rem .4rem;color:#fff}
.get{background:#2f7d32}.post{background:#1565c0}.put{background:#8e5b00}.patch{background:#6a4c93}.delete{background:#b3261e}
.head,.options,.trace{background:#555}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{overflow-wrap:anywhere}
pre{background:#f1f3f6;border-radius:4px;padding:.6rem;margin:.3rem 0;overflow:auto;max-height:24rem;white-space:pre-wrap;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.3rem 0;width:100%}
td,th{border:1px solid #dde1e7;padding:.25rem .45rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#f1f3f6;font-weight:600;overflow-wrap:normal}
.auth{font-size:.92rem;color:#333}.scope{background:#fff4d6;border-radius:3px;padding:0 .3rem}
.req{color:#b3261e;font-size:.8rem}.muted{color:#667;font-size:.85rem}
details summary{cursor:pointer;color:#335}
@media (max-width:36rem){table.fields th{display:none}table.fields tr{display:block;border-top:1px solid #dde1e7;padding:.35rem 0}
table.fields td{display:block;border:none;padding:.05rem .2rem}table.fields td:first-child code{font-weight:700}}
@media (max-width:52rem){main{grid-template-columns:minmax(0,1fr);padding:.6rem}nav{position:static;max-height:none}
section.op{padding:.7rem .6rem}header{padding:.8rem .7rem}}
`;

function anchor(method: string, path: string): string {
  return `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, "-")}`;
}

function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${inline(p)}</p>`)
    .join("");
}

function refName(schema: unknown): string | undefined {
  const ref = (schema as Json | undefined)?.$ref;
  return typeof ref === "string" ? ref.split("/").pop() : undefined;
}

const shapeLink = (name: string) => `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;

/** A schema's type in a few words, with links to named shapes. */
function typeText(schema: unknown): string {
  const s = (schema ?? {}) as Json;
  const name = refName(s);
  if (name) return shapeLink(name);
  if ("const" in s) return `<code>${escapeHtml(JSON.stringify(s.const))}</code>`;
  if (Array.isArray(s.enum))
    return `one of ${s.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(", ")}`;
  const branches = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(branches)) return branches.map(typeText).join(" or ");
  if (Array.isArray(s.allOf)) return s.allOf.map(typeText).join(" and ");
  if (Array.isArray(s.type)) return s.type.map((t) => typeText({ ...s, type: t })).join(" or ");
  if (s.type === "array") return `array of ${typeText(s.items)}`;
  if (s.type === undefined) return "any";
  return `${escapeHtml(String(s.type))}${typeof s.format === "string" ? ` (${escapeHtml(s.format)})` : ""}`;
}

function constraints(s: Json): string {
  const parts: string[] = [];
  const add = (key: string, label: string) => {
    if (s[key] !== undefined) parts.push(`${label} ${escapeHtml(String(s[key]))}`);
  };
  add("minimum", "min");
  add("maximum", "max");
  add("minLength", "min length");
  add("maxLength", "max length");
  add("maxItems", "at most");
  if (typeof s.pattern === "string") parts.push(`pattern <code>${escapeHtml(s.pattern)}</code>`);
  if (s.default !== undefined) parts.push(`default <code>${escapeHtml(JSON.stringify(s.default))}</code>`);
  if (s.additionalProperties === false) parts.push("no other fields");
  return parts.length ? `<span class="muted">${parts.join("; ")}</span>` : "";
}

/** Rows for an object's fields; inline objects (not named shapes) are expanded as `a.b`. */
function fieldRows(schema: unknown, prefix: string, depth: number): string[] {
  const s = (schema ?? {}) as Json;
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const rows: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    // A nullable field (X or null) carries its description on X.
    const branches = ((p.anyOf ?? p.oneOf) as Json[] | undefined) ?? [];
    const text = p.description ?? branches.find((b) => b.description)?.description;
    const described = [text ? inline(String(text)) : "", constraints(p)].filter(Boolean).join(" ");
    rows.push(
      `<tr><td><code>${escapeHtml(prefix + name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ""}</td><td>${typeText(p)}</td><td>${described}</td></tr>`,
    );
    const inner = p.type === "array" ? (p.items as Json | undefined) : p;
    if (depth < 4 && inner && !refName(inner) && inner.properties)
      rows.push(...fieldRows(inner, `${prefix}${name}${p.type === "array" ? "[]" : ""}.`, depth + 1));
  }
  return rows;
}

function fieldTable(schema: unknown): string {
  const rows = fieldRows(schema, "", 0);
  if (!rows.length) return `<p>${typeText(schema)} ${constraints((schema ?? {}) as Json)}</p>`;
  return `<div class="scroll"><table class="fields"><tr><th>field</th><th>type</th><th>meaning</th></tr>${rows.join("")}</table></div>`;
}

function example(value: unknown, label = "example"): string {
  return `<details><summary>${escapeHtml(label)}</summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`;
}

/** A body: its fields (a named shape's, or each variant's), then its examples. */
function bodyBlock(media: Json, schemas: Record<string, Json>): string {
  const schema = media.schema as Json | undefined;
  const name = refName(schema);
  const target = name ? schemas[name] : schema;
  const parts: string[] = [];
  const variants = (target?.oneOf as Json[] | undefined)?.filter((v) => refName(v));
  if (variants?.length) {
    parts.push(`<p>One of: ${variants.map((v) => shapeLink(refName(v)!)).join(", ")} (see each below).</p>`);
    for (const v of variants) {
      const n = refName(v)!;
      parts.push(`<h5>${escapeHtml(n)}</h5>${fieldTable(schemas[n])}`);
    }
  } else {
    if (name) parts.push(`<p>${shapeLink(name)}</p>`);
    parts.push(fieldTable(target));
  }
  if (media.example !== undefined) parts.push(example(media.example));
  for (const [label, e] of Object.entries((media.examples ?? {}) as Record<string, Json>))
    parts.push(example(e.value, `example: ${label}`));
  return parts.join("");
}

interface Op {
  method: string;
  path: string;
  op: Json;
}

function responseBody(status: string, r: Json): string {
  const content = (r.content ?? {}) as Record<string, Json>;
  return Object.entries(content)
    .map(([type, media]) => {
      const examples = Object.values((media.examples ?? {}) as Record<string, Json>);
      if (Number(status) >= 400 && examples.length)
        return `problem+json: ${examples.map((e) => `<code>${escapeHtml(String((e.value as Json).type))}</code>`).join(", ")}`;
      const name = refName(media.schema);
      return name ? shapeLink(name) : `<code>${escapeHtml(type)}</code> ${typeText(media.schema)}`;
    })
    .join("<br>");
}

function renderOperation({ method, path, op }: Op, schemas: Record<string, Json>): string {
  const parts: string[] = [
    `<section class="op" id="${anchor(method, path)}"><h3><span class="m ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code></h3>`,
  ];
  if (typeof op.summary === "string") parts.push(`<p><strong>${escapeHtml(op.summary)}</strong></p>`);
  if (typeof op.description === "string") parts.push(`<div class="auth">${paragraphs(op.description)}</div>`);
  const params = (op.parameters as Json[] | undefined) ?? [];
  if (params.length) {
    parts.push(
      '<h4>Parameters</h4><div class="scroll"><table><tr><th>name</th><th>in</th><th>type</th><th>meaning</th></tr>',
    );
    for (const p of params) {
      const schema = (p.schema ?? {}) as Json;
      const meaning = [
        (p.description ?? schema.description) ? inline(String(p.description ?? schema.description)) : "",
        constraints(schema),
      ]
        .filter(Boolean)
        .join(" ");
      parts.push(
        `<tr><td><code>${escapeHtml(String(p.name))}</code>${p.required ? ' <span class="req">required</span>' : ""}</td><td>${escapeHtml(String(p.in))}</td><td>${typeText(schema)}</td><td>${meaning}</td></tr>`,
      );
    }
    parts.push("</table></div>");
  }
  const body = op.requestBody as Json | undefined;
  if (body)
    for (const [type, media] of Object.entries((body.content ?? {}) as Record<string, Json>))
      parts.push(
        `<h4>Request body <code>${escapeHtml(type)}</code>${body.required ? "" : " (optional)"}</h4>${body.description ? `<p>${inline(String(body.description))}</p>` : ""}${bodyBlock(media, schemas)}`,
      );
  const responses = (op.responses ?? {}) as Record<string, Json>;
  parts.push(
    '<h4>Responses</h4><div class="scroll"><table><tr><th>status</th><th>meaning</th><th>body</th></tr>',
  );
  for (const [status, r] of Object.entries(responses))
    parts.push(
      `<tr><td>${escapeHtml(status)}</td><td>${escapeHtml(String(r.description ?? ""))}</td><td>${responseBody(status, r)}</td></tr>`,
    );
  parts.push("</table></div>");
  const ok = Object.entries(responses).find(([s, r]) => Number(s) < 300 && r.content);
  const okMedia = ok && (Object.values(ok[1].content as Record<string, Json>)[0] as Json);
  if (okMedia?.example !== undefined) parts.push(example(okMedia.example, `example ${ok![0]} answer`));
  parts.push("</section>");
  return parts.join("");
}

export function renderDocsPage(doc: Json): string {
  const info = (doc.info ?? {}) as Json;
  const title = `${String(info.title ?? "API")} ${String(info.version ?? "")}`.trim();
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  const tagInfo = ((doc.tags as Json[] | undefined) ?? []).map((t) => ({
    name: String(t.name),
    description: String(t.description ?? ""),
  }));
  const byTag = new Map<string, Op[]>(tagInfo.map((t) => [t.name, []]));
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>))
    for (const [method, op] of Object.entries(item)) {
      const tag = String((((op as Json).tags as string[] | undefined) ?? ["other"])[0]);
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op: op as Json });
    }
  const tags = [...byTag.keys()].filter((t) => byTag.get(t)!.length);
  const describe = (tag: string) => tagInfo.find((t) => t.name === tag)?.description ?? "";
  const nav = tags
    .map(
      (tag) =>
        `<h3>${escapeHtml(tag)}</h3><ul>${byTag
          .get(tag)!
          .map(
            (o) =>
              `<li><a href="#${anchor(o.method, o.path)}"><span class="m ${o.method}">${o.method.toUpperCase()}</span> ${escapeHtml(o.path)}</a></li>`,
          )
          .join("")}</ul>`,
    )
    .join("");
  const sections = tags
    .map(
      (tag) =>
        `<h2 class="tag" id="tag-${escapeHtml(tag.replace(/\W+/g, "-"))}">${escapeHtml(tag)}</h2><p class="tagdesc">${escapeHtml(describe(tag))}</p>${byTag
          .get(tag)!
          .map((o) => renderOperation(o, schemas))
          .join("")}`,
    )
    .join("");
  const shapes = Object.entries(schemas)
    .map(([name, s]) => {
      const described = s.description ? `<p>${inline(String(s.description))}</p>` : "";
      const ex = Array.isArray(s.examples) && s.examples.length ? example(s.examples[0]) : "";
      return `<section class="op" id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${described}${bodyBlock({ schema: s }, schemas)}${ex}</section>`;
    })
    .join("");
  const schemes = Object.entries((components.securitySchemes ?? {}) as Record<string, Json>)
    .map(
      ([name, s]) =>
        `<tr><td><code>${escapeHtml(name)}</code></td><td>${inline(String(s.description ?? s.scheme ?? ""))}</td></tr>`,
    )
    .join("");
  const shapeNav = Object.keys(schemas)
    .map((n) => `<li>${shapeLink(n)}</li>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><header><h1>${escapeHtml(title)}</h1><p>${escapeHtml(String(info.description ?? ""))} Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${escapeHtml(String(doc.openapi))}).</p></header>
<main><nav><details open><summary>Contents</summary>${nav}<h3>more</h3><ul><li><a href="#auth">Authentication and errors</a></li></ul><h3>shapes</h3><ul>${shapeNav}</ul></details></nav>
<div>${sections}<h2 class="tag" id="auth">Authentication and errors</h2><section class="op"><div class="scroll"><table><tr><th>scheme</th><th>how</th></tr>${schemes}</table></div>
<p>Scopes: <span class="scope">tickets:write</span> ticket intake, <span class="scope">permits:read</span> attendant lookups, <span class="scope">notices:write</span> control notices, <span class="scope">admin</span> everything.</p>
<p>Every error is RFC 9457 <code>application/problem+json</code> (${shapeLink("Problem")}) with a stable <code>type</code> per kind; each operation lists the types it can answer. Ten failed authentications from one address within a minute get 429 with <code>Retry-After</code>.</p></section>
<h2 class="tag">Shapes</h2>${shapes}</div></main></body></html>
`;
}
