import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Box, boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();

/** Two complete lots, exactly as GET /api/v1/parkings would answer them. */
const lotFile = () => ({
  data: [
    {
      id: 10,
      name: "Centrum P-hus",
      number_of_spaces: 240,
      zone_number: 1234,
      max_time: 86400,
      parking_lot_fee: [
        {
          id: 1,
          cost_per_unit: 2000,
          unit: 1,
          start_time: "08:00:00",
          end_time: "18:00:00",
          type_of_day: 1,
          round: true,
        },
        {
          id: 2,
          cost_per_unit: 500,
          unit: 1,
          start_time: "18:00:00",
          end_time: "08:00:00",
          type_of_day: 1,
          round: true,
        },
      ],
      variable_fees: [
        { id: 1, type_of_day: 2, from_minute: 0, to_minute: 60, cost_per_unit: 0, unit: 1 },
        { id: 2, type_of_day: 2, from_minute: 60, to_minute: null, cost_per_unit: 1500, unit: 1 },
      ],
      parking_lot_open: [{ id: 1, type_of_day: 1, open_time: "06:00:00", close_time: "23:59:59" }],
      parking_lot_location: [{ id: 1, latitude: 59.3326, longitude: 18.0649 }],
      active: true,
      max_fee: 25000,
    },
    {
      id: 11,
      name: "Hamnen",
      number_of_spaces: 0,
      zone_number: 77,
      max_time: 0,
      parking_lot_fee: [],
      variable_fees: [],
      parking_lot_open: [],
      parking_lot_location: [],
      active: false,
      max_fee: 0,
    },
  ],
});

function write(box: Box, name: string, value: unknown): string {
  const path = join(box.dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return path;
}

describe("parkd lots import / export", () => {
  test("export → import round-trips unchanged, ids kept", async () => {
    const box = newBox();
    await box.migrate();
    const imported = await box.run(["lots", "import", write(box, "lots.json", lotFile())]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain("2 new");
    const first = await box.run(["lots", "export"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual(lotFile());
    const again = await box.run(["lots", "import", write(box, "export.json", first.stdout)]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("0 new, 0 changed, 2 unchanged");
    const second = await box.run(["lots", "export"]);
    expect(second.stdout).toBe(first.stdout);
  });

  test("a bad file changes nothing and names the lot and the field", async () => {
    const box = newBox();
    await box.migrate();
    expect((await box.run(["lots", "import", write(box, "good.json", lotFile())])).code).toBe(0);
    const before = (await box.run(["lots", "export"])).stdout;
    const bad = lotFile();
    bad.data[0]!.name = "Renamed";
    bad.data[1]!.parking_lot_fee = [
      {
        id: 1,
        cost_per_unit: 100,
        unit: 9,
        start_time: "08:00:00",
        end_time: "18:00:00",
        type_of_day: 1,
        round: true,
      },
    ];
    const r = await box.run(["lots", "import", write(box, "bad.json", bad)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("lot at index 1 (id 11)");
    expect(r.stderr).toContain("/parking_lot_fee/0/unit");
    expect(r.stderr).toContain("nothing was changed");
    const unknown = lotFile();
    (unknown.data[0] as Record<string, unknown>).colour = "red";
    const u = await box.run(["lots", "import", write(box, "unknown.json", unknown)]);
    expect(u.code).toBe(1);
    expect(u.stderr).toContain("lot at index 0 (id 10): /colour: Unknown field");
    const notJson = await box.run(["lots", "import", write(box, "broken.json", "{ data: ")]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain("not valid JSON");
    const missing = await box.run(["lots", "import", join(box.dir, "nope.json")]);
    expect(missing.code).toBe(1);
    expect((await box.run(["lots", "export"])).stdout).toBe(before);
    const stdin = await box.run(["lots", "import", "-"], {
      stdin: JSON.stringify({ data: [lotFile().data[1]] }),
    });
    expect(stdin.code).toBe(0);
    expect(stdin.stderr).toContain("0 new, 0 changed, 1 unchanged");
    const renamed = lotFile().data[1]!;
    renamed.name = "Renamed by file";
    const change = await box.run(["lots", "import", "-"], { stdin: JSON.stringify({ data: [renamed] }) });
    expect(change.code).toBe(0);
    expect(change.stderr).toContain(`lot ${renamed.id} (index 0) changes: name`);
    expect(change.stderr).toContain("0 new, 1 changed, 0 unchanged");
    const dry = await box.run([
      "lots",
      "import",
      "--dry-run",
      write(box, "dry.json", { data: [{ name: "New", zone_number: 1 }] }),
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain("1 new");
    const after = JSON.parse((await box.run(["lots", "export"])).stdout).data;
    expect(after.map((l: { name: string }) => l.name)).toEqual([lotFile().data[0]!.name, "Renamed by file"]);
  });

  test("while serve runs: the list over HTTP, an import shows at once, admin writes show in export", async () => {
    const box = newBox();
    const holidays = write(box, "holidays.json", ["SE", "2026-06-16"]);
    const server = await box.serve(["--http", "--timezone", "Europe/Stockholm", "--holidays", holidays]);
    const empty = await fetch(`${server.url}/api/v1/parkings`);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ data: [] });
    const etag = empty.headers.get("etag")!;
    expect(
      (await fetch(`${server.url}/api/v1/parkings`, { headers: { "if-none-match": etag } })).status,
    ).toBe(304);

    const imported = await box.run(["lots", "import", write(box, "lots.json", lotFile())]);
    expect(imported.code).toBe(0);
    const listed = await fetch(`${server.url}/api/v1/parkings`, { headers: { "if-none-match": etag } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("content-type")).toStartWith("application/json");
    expect(await listed.json()).toEqual(lotFile());
    const active = await (await fetch(`${server.url}/api/v1/parkings?active=true`)).json();
    expect(active.data.map((l: { id: number }) => l.id)).toEqual([10]);

    // Tue 16 June 2026 is a holiday by the --holidays file: no weekday fees, so free.
    const quote = await fetch(
      `${server.url}/api/v1/parkings/10/quote?start=2026-06-16T09:00&end=2026-06-16T10:00`,
    );
    expect((await quote.json()).data).toMatchObject({ amount_incl_vat: 0, currency_code: "SEK" });
    const weekday = await fetch(
      `${server.url}/api/v1/parkings/10/quote?start=2026-06-17T09:00&end=2026-06-17T10:00`,
    );
    expect((await weekday.json()).data.amount_incl_vat).toBe(2000);

    const admin = await box.token("ops", "admin");
    const posted = await fetch(`${server.url}/api/v1/parkings`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Station", zone_number: 5 }),
    });
    expect(posted.status).toBe(201);
    expect(posted.headers.get("location")).toBe("/api/v1/parkings/12");
    const exported = JSON.parse((await box.run(["lots", "export"])).stdout);
    expect(exported.data.map((l: { id: number }) => l.id)).toEqual([10, 11, 12]);
    const gone = await fetch(`${server.url}/api/v1/parkings/99`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("content-type")).toStartWith("application/problem+json");
    expect(await server.stop("SIGTERM")).toBe(0);
  });

  test("a bad --holidays file stops serve with the reason", async () => {
    const box = newBox();
    const r = await box.run([
      "serve",
      "--http",
      "--port",
      "0",
      "--holidays",
      write(box, "h.json", ["2026-02-30"]),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a date");
  });
});
