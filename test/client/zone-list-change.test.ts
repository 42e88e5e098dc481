import { expect, test } from "bun:test";
import { applyChange } from "../../src/client/live-list.ts";
import { PlateList } from "../../src/domain/permits/plate-list.ts";
import { normalizePlate } from "../../src/domain/plates.ts";
import { seeded } from "../support/random.ts";

const LETTERS = ["A", "B", "Z", "Å", "Ä", "Ö", "V", "W", "0", "1", "9", "E", "É", "Ü", "a", "ö"];
const SEPARATORS = ["", "", "", " ", "-", "."];

test("a change of the live list, applied in place on the plates as shown, gives the server's list", () => {
  const r = seeded(88);
  const shown = () =>
    Array.from(
      { length: 2 + r.int(5) },
      () => LETTERS[r.int(LETTERS.length)]! + SEPARATORS[r.int(SEPARATORS.length)]!,
    )
      .join("")
      .replace(/[ .-]$/, "");
  let mismatched = 0;
  for (let round = 0; round < 300; round++) {
    const entries = Array.from({ length: r.int(150) }, () => {
      const plate = shown();
      return { plate, plateNorm: normalizePlate(plate), startAt: r.int(1000) };
    }).filter((e) => e.plateNorm !== "");
    let server = PlateList.sorted(entries);
    let phone = server.plates;
    for (let step = 0; step < 6; step++) {
      // Plates arrive (some a new spelling of one held), and go.
      const changed = new Map<string, string | null>();
      for (let k = r.int(6); k > 0; k--) {
        const plate = shown();
        if (normalizePlate(plate)) changed.set(normalizePlate(plate), plate);
      }
      const held = server.keys;
      for (let k = r.int(4); k > 0 && held.length; k--) changed.set(held[r.int(held.length)]!, null);
      const patch = server.patch(changed);
      phone = applyChange(phone, { from: "", added: patch.added, removed: patch.removed });
      server = patch.list;
      if (JSON.stringify(phone) !== JSON.stringify(server.plates)) mismatched++;
      expect(phone).toEqual(server.plates);
    }
  }
  expect(mismatched).toBe(0);
});
