-- parkd central schema, version 1. Every table lives in the schema "parkd" and every row a box
-- sends carries the site it came from. Instants are timestamptz (UTC); amounts are cents incl. VAT.
-- Applied by `parkd central init`; never edit a file once released: add the next one instead.

CREATE SCHEMA IF NOT EXISTS parkd;

-- One row per box. The box creates its row on its first push.
CREATE TABLE parkd.sites (
  site          text PRIMARY KEY CHECK (site ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  -- The last push that stored anything, and the last pull of central permits.
  last_push_at  timestamptz,
  last_pull_at  timestamptz,
  -- Highest event seq stored for this site: where a box resumes if its own cursor is ahead.
  pushed_seq    bigint NOT NULL DEFAULT 0,
  box_version   text,
  -- The box that pushes for this site (its own random id): a second box given the same site id
  -- is refused rather than mixing two event logs. Set to NULL to let another box take the site.
  box_id        uuid
);

-- The append-only event log of every site: each accepted intake event, raw body as sent.
CREATE TABLE parkd.events (
  site        text NOT NULL REFERENCES parkd.sites,
  seq         bigint NOT NULL,
  ticket_id   text NOT NULL,
  event_type  text NOT NULL,
  received_at timestamptz NOT NULL,
  credential  text NOT NULL,
  outcome     text NOT NULL CHECK (outcome IN ('applied', 'repeat')),
  -- The body as sent; a very long one is stored as its known fields, and body_cut_from then
  -- holds the length in bytes it had (NULL: raw_body is the body as sent).
  raw_body    text NOT NULL,
  body_cut_from bigint,
  pushed_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site, seq)
);
CREATE INDEX events_ticket ON parkd.events (site, ticket_id, seq);
CREATE INDEX events_received ON parkd.events (received_at);

-- Each ticket's current state as its box last described it.
CREATE TABLE parkd.tickets (
  site            text NOT NULL REFERENCES parkd.sites,
  ticket_id       text NOT NULL,
  zone            integer NOT NULL,
  parking_lot_id  integer,
  lot_unknown     boolean NOT NULL,
  start_at        timestamptz NOT NULL,
  end_at          timestamptz,
  plate           text NOT NULL,
  plate_norm      text NOT NULL,
  amount_incl_vat bigint,
  vat_rate        integer,
  currency_code   text,
  status          text NOT NULL CHECK (status IN ('running', 'stopped', 'canceled')),
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  canceled_at     timestamptz,
  -- The seq of the last event this state includes: a state never replaces a newer one.
  last_seq        bigint NOT NULL,
  pushed_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site, ticket_id)
);
CREATE INDEX tickets_plate ON parkd.tickets (plate_norm);
CREATE INDEX tickets_zone_time ON parkd.tickets (site, zone, end_at);
CREATE INDEX tickets_start ON parkd.tickets (start_at);

-- Each site's parking lots; a lot deleted at the box is kept here with removed_at set.
CREATE TABLE parkd.lots (
  site             text NOT NULL REFERENCES parkd.sites,
  lot_id           integer NOT NULL,
  name             text NOT NULL,
  number_of_spaces integer NOT NULL,
  zone_number      integer NOT NULL,
  max_time         integer NOT NULL,
  max_fee          bigint NOT NULL,
  active           boolean NOT NULL,
  fees             jsonb NOT NULL,
  variable_fees    jsonb NOT NULL,
  opening_hours    jsonb NOT NULL,
  locations        jsonb NOT NULL,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  updated_by       text NOT NULL,
  removed_at       timestamptz,
  pushed_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site, lot_id)
);

-- Attendants' lookups: who asked for which plate or zone, when, and how many permits came back.
CREATE TABLE parkd.lookups (
  site       text NOT NULL REFERENCES parkd.sites,
  id         bigint NOT NULL,
  at         timestamptz NOT NULL,
  credential text NOT NULL,
  by         text NOT NULL,
  query      text NOT NULL,
  results    integer NOT NULL,
  PRIMARY KEY (site, id)
);
CREATE INDEX lookups_at ON parkd.lookups (at);

-- Permits issued by the office. sites NULL: valid at every site; else at the sites listed.
-- Written by the office (SQL or its own tools); every box pulls the ones valid for it.
CREATE TABLE parkd.permits (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  plate      text NOT NULL CHECK (plate ~ '[[:alnum:]]'),
  zone       integer NOT NULL CHECK (zone >= 0),
  start_at   timestamptz NOT NULL,
  end_at     timestamptz CHECK (end_at IS NULL OR end_at > start_at),
  note       text NOT NULL DEFAULT '',
  -- Weekly windows in each site's time zone, as the box's own permits take them:
  -- [{"weekday": 1, "start_time": "07:00:00", "end_time": "18:00:00"}]; NULL or []: any time.
  days       jsonb CHECK (days IS NULL OR jsonb_typeof(days) = 'array'),
  sites      text[],
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT current_user,
  -- The transaction that last wrote the row: boxes pull what changed since their last pull.
  change_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX permits_change ON parkd.permits (change_xid);

-- Permits deleted at the office, so that boxes drop them too.
CREATE TABLE parkd.permit_removals (
  permit_id  bigint NOT NULL,
  removed_at timestamptz NOT NULL DEFAULT now(),
  change_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX permit_removals_change ON parkd.permit_removals (change_xid);

CREATE FUNCTION parkd.permit_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  NEW.updated_at := now();
  RETURN NEW;
END $$;
CREATE TRIGGER permits_changed BEFORE UPDATE ON parkd.permits
  FOR EACH ROW EXECUTE FUNCTION parkd.permit_changed();

CREATE FUNCTION parkd.permit_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO parkd.permit_removals (permit_id) VALUES (OLD.id);
  RETURN OLD;
END $$;
CREATE TRIGGER permits_removed AFTER DELETE ON parkd.permits
  FOR EACH ROW EXECUTE FUNCTION parkd.permit_removed();
