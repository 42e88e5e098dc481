-- parkd central schema, version 5: a notice after an OVER TIME LIMIT verdict carries the mark it
-- was measured from, as the box copied it when the notice was stored (the mark itself is replaced
-- when the car moves, and goes with retention): when the car was first seen, the zone's limit
-- then, and the handheld that marked it. Null for other notices and for notices sent before.
ALTER TABLE parkd.notices
  ADD COLUMN mark_seen_at timestamptz,
  ADD COLUMN mark_limit_seconds integer,
  ADD COLUMN marked_by text;
