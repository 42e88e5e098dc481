import type { NoticeView } from "./view.ts";

/**
 * A notice as the documents show it: the handheld's receipt, and the operator's view of the same
 * notice built on it (one example, as there is one view).
 */
export const noticeExample: NoticeView = {
  id: "3f2a9c1e-7b44-4c1d-9a51-0d7e2b6f8c10",
  number: 17,
  registration_number: "ABC123",
  zone: 1234,
  parking_lot_id: 1,
  verdict: "none",
  reason: "no-permit",
  reason_title: "No valid ticket or permit",
  amount: 50000,
  currency: "SEK",
  note: "valves 2 and 7",
  observed_at: "2026-06-15T10:02:00.000000Z",
  mark: null,
  issued_at: "2026-06-15T10:02:03.000000Z",
  photos: [
    {
      hash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      content_type: "image/jpeg",
      bytes: 412_345,
      width: 1600,
      height: 1200,
    },
  ],
};
