-- parkd central schema, version 4: control notices, their photos and the timed observations
-- (marks) travel to the office with the other rows, under the same line between sites as tickets
-- (a site's role reads and writes its own rows only), and the reporting role gets notices per
-- day, reason and site.

-- Each notice as its box last described it: issued, then perhaps voided, with the records of its
-- photos. `notice_id` is the handheld's own id, `number` the site's sequence printed on the
-- notice; `sync_seq` moves at the box on every write (issue, void, photo), so a state never
-- replaces a newer one.
CREATE TABLE parkd.notices (
  site          text NOT NULL REFERENCES parkd.sites,
  notice_id     text NOT NULL,
  number        bigint NOT NULL,
  plate         text NOT NULL,
  plate_norm    text NOT NULL,
  zone          integer NOT NULL,
  lot_id        integer,
  verdict       text NOT NULL,
  reason_code   text NOT NULL,
  reason_title  text NOT NULL,
  amount        bigint NOT NULL,
  currency      text NOT NULL,
  note          text NOT NULL,
  observed_at   timestamptz NOT NULL,
  issued_at     timestamptz NOT NULL,
  issued_by     text NOT NULL,
  voided_at     timestamptz,
  voided_by     text,
  void_reason   text,
  state         text GENERATED ALWAYS AS (CASE WHEN voided_at IS NULL THEN 'issued' ELSE 'voided' END) STORED,
  -- [{"hash", "content_type", "bytes", "width", "height", "added_at"}]: the files are in
  -- parkd.notice_photos once the box has sent them (after this row).
  photos        jsonb NOT NULL DEFAULT '[]',
  sync_seq      bigint NOT NULL,
  pushed_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site, notice_id),
  UNIQUE (site, number)
);
CREATE INDEX notices_issued ON parkd.notices (issued_at);
CREATE INDEX notices_plate ON parkd.notices (plate_norm);
CREATE INDEX notices_sync ON parkd.notices (site, sync_seq);

-- A notice whose number the office holds under another notice id (a box restored from an older
-- backup and issued, before it reached the office again, numbers it had issued before): kept here
-- whole, as sent, for the office to sort out with the site; parkd.notices keeps the first.
CREATE TABLE parkd.notice_number_clashes (
  site      text NOT NULL REFERENCES parkd.sites,
  notice_id text NOT NULL,
  number    bigint NOT NULL,
  sync_seq  bigint NOT NULL,
  notice    jsonb NOT NULL,
  pushed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site, notice_id)
);

-- The photo files of a site's notices, one row per distinct file (named by its SHA-256, as in the
-- box's photos folder). Only ever added.
CREATE TABLE parkd.notice_photos (
  site         text NOT NULL REFERENCES parkd.sites,
  hash         text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  content_type text NOT NULL,
  size         integer NOT NULL,
  data         bytea NOT NULL,
  pushed_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site, hash)
);

-- The cars attendants marked in zones with a time limit: one a car and site-local day, as at the
-- box (a mark in another zone replaces the day's one; `id` is the box's, higher for the later).
CREATE TABLE parkd.observations (
  site          text NOT NULL REFERENCES parkd.sites,
  id            bigint NOT NULL,
  plate         text NOT NULL,
  plate_norm    text NOT NULL,
  zone          integer NOT NULL,
  day_start     timestamptz NOT NULL,
  first_seen_at timestamptz NOT NULL,
  limit_seconds integer NOT NULL,
  note          text NOT NULL,
  marked_by     text NOT NULL,
  pushed_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site, plate_norm, day_start)
);
CREATE INDEX observations_id ON parkd.observations (site, id);
CREATE INDEX observations_seen ON parkd.observations (first_seen_at);

-- What a box needs and no more: notices and marks are replaced (a void, a photo, a car seen in
-- another zone), photo files only ever added; no DELETE.
GRANT SELECT, INSERT, UPDATE ON parkd.notices, parkd.notice_number_clashes, parkd.observations TO parkd_boxes;
GRANT SELECT, INSERT ON parkd.notice_photos TO parkd_boxes;
GRANT SELECT ON parkd.notices, parkd.notice_number_clashes, parkd.notice_photos, parkd.observations
  TO parkd_reporting;

-- The same policies as every other table of a site's rows (0002_site_roles.sql).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['notices', 'notice_number_clashes', 'notice_photos', 'observations'] LOOP
    EXECUTE format('ALTER TABLE parkd.%I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY own_site ON parkd.%I TO parkd_boxes
         USING (site = (SELECT r.site FROM parkd.site_roles r WHERE r.role_name = current_user))
         WITH CHECK (site = (SELECT r.site FROM parkd.site_roles r WHERE r.role_name = current_user))', t);
    EXECUTE format('CREATE POLICY read_all ON parkd.%I FOR SELECT TO parkd_reporting USING (true)', t);
  END LOOP;
END $$;

-- Notices per site, day, reason and currency: the day is the notice's issue in its site's time
-- zone (UTC until the box has sent its zone). A voided notice counts in `voided` and
-- `voided_amount`, never in `issued` and `amount`; `notices` counts both.
CREATE VIEW parkd.report_notices_daily AS
SELECT n.site, (n.issued_at AT TIME ZONE coalesce(s.time_zone, 'UTC'))::date AS day, n.reason_code,
  (array_agg(n.reason_title ORDER BY n.issued_at DESC, n.number DESC))[1] AS reason_title,
  n.currency,
  count(*) AS notices,
  count(*) FILTER (WHERE n.voided_at IS NULL) AS issued,
  count(*) FILTER (WHERE n.voided_at IS NOT NULL) AS voided,
  coalesce(sum(n.amount) FILTER (WHERE n.voided_at IS NULL), 0)::bigint AS amount,
  coalesce(sum(n.amount) FILTER (WHERE n.voided_at IS NOT NULL), 0)::bigint AS voided_amount
FROM parkd.notices n JOIN parkd.sites s ON s.site = n.site
GROUP BY n.site, 2, n.reason_code, n.currency;

GRANT SELECT ON parkd.report_notices_daily TO parkd_reporting;
