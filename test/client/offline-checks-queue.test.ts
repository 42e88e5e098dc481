import { afterAll, beforeEach, expect, test } from "bun:test";
import type { OfflineCheck } from "../../src/client/api-types.ts";
import {
  keepOfflineCheck,
  offlineChecksWaiting,
  sendOfflineChecks,
} from "../../src/client/offline-checks.ts";

/** The phone's storage and the box, as the queue sees them. */
const storage = new Map<string, string>();
(globalThis as { localStorage?: unknown }).localStorage = {
  getItem: (k: string) => storage.get(k) ?? null,
  setItem: (k: string, v: string) => void storage.set(k, v),
  removeItem: (k: string) => void storage.delete(k),
};
// Every test file shares the process: the real fetch and storage come back after these tests.
const realFetch = globalThis.fetch;
afterAll(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as { localStorage?: unknown }).localStorage;
});
let answers: ((checks: OfflineCheck[]) => Response)[] = [];
const sent: string[][] = [];
globalThis.fetch = (async (_url: string, init: { body: string }) => {
  const checks = (JSON.parse(init.body) as { checks: OfflineCheck[] }).checks;
  sent.push(checks.map((c) => c.registration_number));
  return answers.shift()!(checks);
}) as unknown as typeof fetch;

const check = (plate: string): OfflineCheck => ({
  registration_number: plate,
  zone: 1002,
  checked_at: "2026-06-15T10:00:00.000Z",
  verdict: "none",
  list_taken_at: "2026-06-15T09:00:00.000Z",
});
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  storage.clear();
  sent.length = 0;
});

test("a batch the box refuses loses only the checks it names; the rest are sent again", async () => {
  for (const p of ["A1", "B2", "C3"]) keepOfflineCheck("token:handheld-1", check(p));
  keepOfflineCheck("token:handheld-2", check("D4"));
  answers = [
    () =>
      json(400, {
        type: "/problems/validation",
        errors: [{ pointer: "/checks/1/checked_at", message: "x" }],
      }),
    (checks) => json(200, { recorded: checks.length, already: 0 }),
  ];
  expect(await sendOfflineChecks("token:handheld-1")).toBe(2);
  expect(sent).toEqual([
    ["A1", "B2", "C3"],
    ["A1", "C3"],
  ]);
  expect(offlineChecksWaiting("token:handheld-1")).toBe(0);
  // Another attendant's checks wait for that attendant.
  expect(offlineChecksWaiting("token:handheld-2")).toBe(1);
});

test("the box not answering, or busy, leaves every check waiting", async () => {
  for (const p of ["A1", "B2"]) keepOfflineCheck("token:handheld-1", check(p));
  answers = [() => json(503, { type: "/problems/unavailable" })];
  expect(await sendOfflineChecks("token:handheld-1")).toBe(0);
  expect(offlineChecksWaiting("token:handheld-1")).toBe(2);
});
