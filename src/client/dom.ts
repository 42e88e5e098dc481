/** A few lines instead of a framework: build elements, replace a region's content. */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, unknown> | null | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function")
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    else if (key === "checked" || key === "selected" || key === "disabled") {
      // The attribute too: it is what form.reset() goes back to.
      el.setAttribute(key, "");
      (el as unknown as Record<string, unknown>)[key] = value;
    } else if (key === "value") {
      if (tag === "input") el.setAttribute("value", String(value));
      (el as unknown as Record<string, unknown>)[key] = value;
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else
      el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag: string, attrs: Record<string, string | number>, ...children: Element[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(c);
  return el;
}

/** The value of a form field by name. */
export function field(form: HTMLFormElement, name: string): string {
  const el = form.elements.namedItem(name);
  return el && "value" in el ? String((el as unknown as HTMLInputElement).value) : "";
}

export function debounce<A extends unknown[]>(fn: (...a: A) => void, ms: number): (...a: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...a: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...a), ms);
  };
}

/** An event handler that keeps the browser's default (form submit, link follow) from happening. */
export function prevented(fn: () => unknown): (e: Event) => void {
  return (e) => {
    e.preventDefault();
    void fn();
  };
}
