import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawnSync } from "bun";
import { boxesForFile } from "../support/binary.ts";
import { Browser, CHROMIUM, skipWithoutChromium } from "../support/chromium.ts";

const newBox = boxesForFile();
/** Screenshots are kept for a person to look at (dist/ is not committed). */
const SHOTS = process.env.PARKD_SCREENSHOT_DIR ?? resolve(import.meta.dir, "../../dist/screenshots");

interface NetLog {
  constants: { logEventTypes: Record<string, number> };
  events: { type: number; params?: { url?: string; initiator?: string } }[];
}

/**
 * /docs in a real headless browser (where the machine has Chromium; the route tests assert the
 * same from the HTML alone everywhere): the page renders, and every request the page itself
 * starts goes back to the box. The browser's own background traffic is told apart by initiator.
 */
describe("the API reference in a browser", () => {
  test.skipIf(skipWithoutChromium)(
    "renders from the binary and loads nothing from elsewhere",
    async () => {
      const box = newBox();
      const server = await box.serve(["--http"]);
      const netLog = join(box.dir, "net.json");
      const run = spawnSync(
        [
          CHROMIUM!,
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          `--user-data-dir=${join(box.dir, "chromium")}`,
          `--log-net-log=${netLog}`,
          "--dump-dom",
          `${server.url}/docs`,
        ],
        { stdout: "pipe", stderr: "ignore", timeout: 60_000 },
      );
      const dom = run.stdout.toString();
      expect(dom).toContain("<title>parkd");
      expect(dom).toContain("/api/v1/attendants/check-tickets");
      const log = JSON.parse(readFileSync(netLog, "utf8")) as NetLog;
      const start = log.constants.logEventTypes.URL_REQUEST_START_JOB;
      const fromPage = log.events
        .filter((e) => e.type === start && e.params?.initiator === server.url)
        .map((e) => e.params!.url!);
      for (const url of fromPage) expect(url.startsWith(`${server.url}/`), url).toBe(true);
      expect(await server.stop()).toBe(0);
    },
    90_000,
  );

  test.skipIf(skipWithoutChromium)(
    "reads at phone and desktop width: nothing cut off, sections in reading order, fields as tables",
    async () => {
      const box = newBox();
      const server = await box.serve(["--http"]);
      const browser = await Browser.start(join(box.dir, "chromium-cdp"));
      mkdirSync(SHOTS, { recursive: true });
      try {
        for (const width of [390, 1280]) {
          await browser.open(`${server.url}/docs`, width, 900);
          const layout = await browser.evaluate<{
            innerWidth: number;
            scrollWidth: number;
            cut: string[];
            sections: string[];
            tables: number;
            rawSchemas: number;
            lotsTop: number;
            intakeTop: number;
          }>(`(() => {
            const w = window.innerWidth;
            const cut = [...document.querySelectorAll("section.op, header, nav, h2, table, pre, code")]
              .filter((e) => {
                const r = e.getBoundingClientRect();
                // Inside a scrolling wrapper a wide table is reachable, not cut off.
                const scroller = e.closest(".scroll, pre");
                const box = scroller && scroller !== e ? scroller.getBoundingClientRect() : r;
                return box.right > w + 0.5 || box.left < -0.5;
              })
              .map((e) => (e.id || e.tagName) + ":" + Math.round(e.getBoundingClientRect().right));
            return {
              innerWidth: w,
              scrollWidth: document.documentElement.scrollWidth,
              cut,
              sections: [...document.querySelectorAll("h2.tag")].map((h) => h.textContent),
              tables: document.querySelectorAll("section.op table").length,
              rawSchemas: [...document.querySelectorAll("pre")].filter((p) => /"properties"s*:|"$ref"/.test(p.textContent)).length,
              lotsTop: document.getElementById("tag-parking-lots").getBoundingClientRect().top + window.scrollY,
              intakeTop: document.querySelector("section.op h5").getBoundingClientRect().top + window.scrollY,
            };
          })()`);
          writeFileSync(join(SHOTS, `docs-${width}-top.png`), await browser.screenshot(0));
          writeFileSync(join(SHOTS, `docs-${width}-lots.png`), await browser.screenshot(layout.lotsTop));
          writeFileSync(
            join(SHOTS, `docs-${width}-intake.png`),
            await browser.screenshot(layout.intakeTop - 100),
          );
          expect(layout.innerWidth).toBe(width);
          expect(layout.cut).toEqual([]);
          expect(layout.scrollWidth).toBeLessThanOrEqual(width);
          expect(layout.sections.slice(0, 3)).toEqual(["ticket intake", "attendant lookups", "parking lots"]);
          expect(layout.tables).toBeGreaterThan(50);
          expect(layout.rawSchemas).toBe(0);
        }
      } finally {
        await browser.close();
      }
      expect(await server.stop()).toBe(0);
    },
    90_000,
  );
});
