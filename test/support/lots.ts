import { call, testApp } from "./app.ts";

/** A lot as an operator would send it: weekday day and night rates, Saturday pro rata. */
export const cityLot = () => ({
  name: "Centrum P-hus",
  number_of_spaces: 240,
  zone_number: 1234,
  max_time: 86_400,
  parking_lot_fee: [
    {
      cost_per_unit: 2000,
      unit: 1,
      start_time: "08:00:00",
      end_time: "18:00:00",
      type_of_day: 1,
      round: true,
    },
    {
      cost_per_unit: 500,
      unit: 1,
      start_time: "18:00:00",
      end_time: "08:00:00",
      type_of_day: 1,
      round: true,
    },
    {
      cost_per_unit: 1000,
      unit: 1,
      start_time: "10:00:00",
      end_time: "16:00:00",
      type_of_day: 2,
      round: false,
    },
  ],
  variable_fees: [],
  parking_lot_open: [{ type_of_day: 1, open_time: "06:00:00", close_time: "23:59:59" }],
  parking_lot_location: [{ latitude: 59.3326, longitude: 18.0649 }],
  active: true,
  max_fee: 25_000,
});

export function lotSetup() {
  const s = testApp();
  return { ...s, admin: s.token("admin") };
}

export async function createdLot(s: ReturnType<typeof lotSetup>, body: unknown = cityLot()) {
  const res = await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json.data;
}
