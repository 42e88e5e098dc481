import { readFileSync } from "node:fs";
import { holidayEntryProblem } from "../domain/tariff/holidays.ts";

/** Reads a `--holidays` file: a JSON array of "YYYY-MM-DD" dates and/or "SE". Throws with the reason. */
export function readHolidayFile(path: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`cannot read it as JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(value)) throw new Error('expected a JSON array such as ["SE", "2026-08-15"]');
  value.forEach((entry, i) => {
    const problem = holidayEntryProblem(entry);
    if (problem) throw new Error(`entry ${i}: ${problem}`);
  });
  return value as string[];
}
