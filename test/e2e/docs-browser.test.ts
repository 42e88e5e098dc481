import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { boxesForFile } from "../support/binary.ts";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  openBrowser,
  screenshotPath,
  skipWithoutChromium,
} from "../support/browser.ts";

const newBox = boxesForFile();

interface NetLog {
  constants: { logEventTypes: Record<string, number> };
  events: { type: number; params?: { url?: string; initiator?: string } }[];
}

/**
 * /docs in a real headless browser (Chromium; a laptop without it skips, CI=true never does; the
 * route tests assert the same from the HTML alone everywhere): the page renders, and every request
 * the page itself starts goes back to the box. The browser's own background traffic is told apart
 * by initiator.
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
          ...CHROMIUM_ARGS,
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
      const browser = await openBrowser(join(box.dir, "chromium"), { width: 390, height: 900 });
      try {
        const page = browser.pages()[0] ?? (await browser.newPage());
        const shot = async (name: string, y: number) => {
          await page.evaluate((top) => window.scrollTo(0, top), y);
          await page.screenshot({ path: screenshotPath(name) });
        };
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${server.url}/docs`);
          const layout = await page.evaluate<{
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
          await shot(`docs-${width}-top`, 0);
          await shot(`docs-${width}-lots`, layout.lotsTop);
          await shot(`docs-${width}-intake`, layout.intakeTop - 100);
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
