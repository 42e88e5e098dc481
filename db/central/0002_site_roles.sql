-- parkd central schema, version 2: one database role per site, and row-level security so that a
-- box's role reads and writes its own site's rows only. The office (the schema's owner) keeps
-- seeing everything: the owner is not subject to its tables' policies.
--
-- Roles are the cluster's, not the database's: the two group roles below are made once and
-- reused by every database of the cluster that holds a parkd schema.
--   parkd_boxes      every site's role is a member (`parkd central add-site NAME` makes one);
--   parkd_reporting  reads every site and writes nothing (BI tools log in as a member of it).

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'parkd_boxes') THEN
    CREATE ROLE parkd_boxes NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'parkd_reporting') THEN
    CREATE ROLE parkd_reporting NOLOGIN;
  END IF;
  -- The one role docs/central.md gave every box before version 2 could write every site's rows:
  -- it keeps nothing (it is not a site's role, so the policies below show it no rows either).
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'parkd_box') THEN
    REVOKE ALL ON parkd.sites, parkd.events, parkd.tickets, parkd.lots, parkd.lookups FROM parkd_box;
  END IF;
END $$;

-- Which login role is which site's. The owner writes it (`parkd central add-site`); a box's role
-- reads its own row only.
CREATE TABLE parkd.site_roles (
  site       text PRIMARY KEY CHECK (site ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
  role_name  name NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON parkd.site_roles FROM PUBLIC;
GRANT SELECT ON parkd.site_roles TO parkd_boxes;
ALTER TABLE parkd.site_roles ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_role ON parkd.site_roles FOR SELECT TO parkd_boxes USING (role_name = current_user);

-- The site of the role running the statement, NULL for any role that is not a site's (what a box
-- checks at its start). The policies below hold the same subquery written out: a call to a
-- function costs 0.05-0.3 ms per table a statement touches, the subquery an index lookup, once
-- per statement (an InitPlan).
CREATE FUNCTION parkd.box_site() RETURNS text
  LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
  AS $$ SELECT site FROM parkd.site_roles WHERE role_name = current_user $$;
REVOKE ALL ON FUNCTION parkd.box_site() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION parkd.box_site() TO parkd_boxes, parkd_reporting;

-- Each site's IANA time zone, sent by its box: the reports' days and hours are the site's own.
ALTER TABLE parkd.sites ADD COLUMN time_zone text;

GRANT USAGE ON SCHEMA parkd TO parkd_boxes, parkd_reporting;

-- What a box needs and no more: events and lookup records are only ever added (no UPDATE),
-- ticket states and lots are replaced, a site row only in its push and pull columns; no DELETE.
GRANT SELECT, INSERT ON parkd.events, parkd.lookups TO parkd_boxes;
GRANT SELECT, INSERT, UPDATE ON parkd.tickets, parkd.lots TO parkd_boxes;
GRANT SELECT, INSERT (site, last_push_at, last_pull_at, pushed_seq, box_version, box_id, time_zone),
  UPDATE (last_push_at, last_pull_at, pushed_seq, box_version, box_id, time_zone) ON parkd.sites TO parkd_boxes;
GRANT SELECT ON parkd.permits, parkd.permit_removals, parkd.schema_migrations TO parkd_boxes;

GRANT SELECT ON parkd.sites, parkd.events, parkd.tickets, parkd.lots, parkd.lookups, parkd.permits,
  parkd.permit_removals, parkd.schema_migrations TO parkd_reporting;

-- Row-level security: a box's role sees and writes the rows of its site only (USING: which
-- existing rows it reads, updates or conflicts with; WITH CHECK: which rows it may write). Any
-- other role but the owner and the reporting role sees no rows at all.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sites', 'events', 'tickets', 'lots', 'lookups'] LOOP
    EXECUTE format('ALTER TABLE parkd.%I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY own_site ON parkd.%I TO parkd_boxes
         USING (site = (SELECT r.site FROM parkd.site_roles r WHERE r.role_name = current_user))
         WITH CHECK (site = (SELECT r.site FROM parkd.site_roles r WHERE r.role_name = current_user))', t);
    EXECUTE format('CREATE POLICY read_all ON parkd.%I FOR SELECT TO parkd_reporting USING (true)', t);
  END LOOP;
END $$;

-- Office permits: a box reads the ones meant for every site or listing its own.
ALTER TABLE parkd.permits ENABLE ROW LEVEL SECURITY;
CREATE POLICY meant_for_site ON parkd.permits FOR SELECT TO parkd_boxes
  USING (sites IS NULL OR (SELECT r.site FROM parkd.site_roles r WHERE r.role_name = current_user) = ANY (sites));
CREATE POLICY read_all ON parkd.permits FOR SELECT TO parkd_reporting USING (true);

-- A box can no longer see a permit whose `sites` stop listing it, so that change is recorded
-- as a removal (an id only) for every box: a box where the permit is still valid reads the
-- permit itself in the same pull and keeps it.
CREATE FUNCTION parkd.permit_sites_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO parkd.permit_removals (permit_id) VALUES (NEW.id);
  RETURN NEW;
END $$;
CREATE TRIGGER permits_sites_changed AFTER UPDATE OF sites ON parkd.permits
  FOR EACH ROW WHEN (OLD.sites IS DISTINCT FROM NEW.sites) EXECUTE FUNCTION parkd.permit_sites_changed();
