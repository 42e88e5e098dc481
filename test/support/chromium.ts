import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "bun";

export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

/** Chromium is needed: a test may skip without it on a laptop, never with CI=true. */
export const skipWithoutChromium = !CHROMIUM && process.env.CI !== "true";

type Json = Record<string, unknown>;

/**
 * A headless Chromium driven over the DevTools protocol (one page): set the viewport, load a
 * URL, evaluate an expression, take a screenshot. Started and ended by the test, by its pid.
 */
export class Browser {
  private ws!: WebSocket;
  private next = 0;
  private readonly waiting = new Map<number, { ok: (v: Json) => void; fail: (e: Error) => void }>();
  private readonly events: { method: string; ok: () => void }[] = [];

  private constructor(private readonly proc: ReturnType<typeof spawn>) {}

  static async start(profileDir: string): Promise<Browser> {
    if (!CHROMIUM)
      throw new Error("Chromium is not installed (./build.sh test installs the Debian package as root)");
    const proc = spawn(
      [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        `--user-data-dir=${profileDir}`,
        "about:blank",
      ],
      { stdout: "ignore", stderr: "ignore" },
    );
    const portFile = join(profileDir, "DevToolsActivePort");
    const deadline = Date.now() + 20_000;
    while (!existsSync(portFile) || readFileSync(portFile, "utf8").split("\n").length < 2) {
      if (Date.now() > deadline) {
        proc.kill();
        throw new Error("Chromium did not open its DevTools port");
      }
      await Bun.sleep(50);
    }
    const port = readFileSync(portFile, "utf8").split("\n")[0]!.trim();
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Json[];
    const page = targets.find((t) => t.type === "page")!;
    const browser = new Browser(proc);
    await browser.connect(String(page.webSocketDebuggerUrl));
    await browser.send("Page.enable");
    return browser;
  }

  private connect(url: string): Promise<void> {
    this.ws = new WebSocket(url);
    this.ws.onmessage = (m) => {
      const msg = JSON.parse(String(m.data)) as Json;
      if (typeof msg.id === "number") {
        const w = this.waiting.get(msg.id);
        this.waiting.delete(msg.id);
        if (msg.error) w?.fail(new Error(JSON.stringify(msg.error)));
        else w?.ok((msg.result ?? {}) as Json);
      } else if (typeof msg.method === "string") {
        const i = this.events.findIndex((e) => e.method === msg.method);
        if (i >= 0) this.events.splice(i, 1)[0]!.ok();
      }
    };
    return new Promise((ok, fail) => {
      this.ws.onopen = () => ok();
      this.ws.onerror = () => fail(new Error("DevTools connection failed"));
    });
  }

  send(method: string, params: Json = {}): Promise<Json> {
    const id = ++this.next;
    return new Promise((ok, fail) => {
      this.waiting.set(id, { ok, fail });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  private once(method: string): Promise<void> {
    return new Promise((ok) => this.events.push({ method, ok }));
  }

  async open(url: string, width: number, height: number): Promise<void> {
    await this.send("Emulation.setDeviceMetricsOverride", {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: width < 600,
    });
    const loaded = this.once("Page.loadEventFired");
    await this.send("Page.navigate", { url });
    await loaded;
  }

  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true });
    return (r.result as Json).value as T;
  }

  /** A PNG of the viewport after scrolling to `y`. */
  async screenshot(y = 0): Promise<Buffer> {
    await this.evaluate(`window.scrollTo(0, ${y})`);
    const r = await this.send("Page.captureScreenshot", { format: "png" });
    return Buffer.from(String(r.data), "base64");
  }

  async close(): Promise<void> {
    try {
      this.ws.close();
    } catch {}
    this.proc.kill();
    await this.proc.exited;
  }
}
