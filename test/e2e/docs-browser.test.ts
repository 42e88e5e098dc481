import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { boxesForFile } from "../support/binary.ts";
import { browserMissing, CHROMIUM, CHROMIUM_ARGS } from "../support/browser.ts";

const newBox = boxesForFile();

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
  test.skipIf(browserMissing())(
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
});
