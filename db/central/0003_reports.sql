-- parkd central schema, version 3: the office's first reports, as views for the reporting role
-- (parkd_reporting: reads every site, writes nothing). docs/central.md states the revenue rule
-- these follow; the box's own revenue report follows the same one.
--
-- The views run with their owner's rights, so they see every site: they are granted to the
-- reporting role only, never to the boxes' roles.

-- A ticket's VAT in öre from its gross amount (incl. VAT) and its rate in percent: rounded to
-- the nearest öre, halves away from zero, in exact integer arithmetic. NULL or 0 rate: no VAT.
CREATE FUNCTION parkd.vat_of(gross bigint, rate integer) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE
      WHEN rate IS NULL OR rate <= 0 OR gross IS NULL THEN 0
      WHEN gross >= 0 THEN (2 * gross * rate + 100 + rate) / (2 * (100 + rate))
      ELSE -((2 * -gross * rate + 100 + rate) / (2 * (100 + rate)))
    END
  $$;

-- Revenue per site, lot, day and VAT rate. Each ticket counts once, with its final state as its
-- box last sent it (parkd.tickets, not the event log); a canceled ticket counts zero; the day is
-- the ticket's start in its site's time zone (UTC until the box has sent its zone).
CREATE VIEW parkd.report_revenue_daily AS
WITH priced AS (
  SELECT t.site, t.parking_lot_id, t.vat_rate, t.currency_code, t.status,
    (t.start_at AT TIME ZONE coalesce(s.time_zone, 'UTC'))::date AS day,
    CASE WHEN t.status = 'canceled' THEN 0 ELSE coalesce(t.amount_incl_vat, 0) END AS gross
  FROM parkd.tickets t JOIN parkd.sites s ON s.site = t.site
)
SELECT p.site, p.parking_lot_id AS lot_id, l.name AS lot_name, p.day, p.vat_rate, p.currency_code,
  count(*) FILTER (WHERE p.status <> 'canceled') AS tickets,
  count(*) FILTER (WHERE p.status = 'canceled') AS canceled_tickets,
  sum(p.gross)::bigint AS gross,
  sum(p.gross - parkd.vat_of(p.gross, p.vat_rate))::bigint AS net,
  sum(parkd.vat_of(p.gross, p.vat_rate))::bigint AS vat
FROM priced p LEFT JOIN parkd.lots l ON l.site = p.site AND l.lot_id = p.parking_lot_id
GROUP BY p.site, p.parking_lot_id, l.name, p.day, p.vat_rate, p.currency_code;

-- Tickets and occupancy per site and hour: `occupied` counts the tickets whose stay overlaps the
-- hour (a running ticket without an end until now; a stay counts at most 31 days), `started`
-- those that began in it; canceled tickets count in neither. `spaces` is the site's lots'
-- spaces (lots not removed), for an occupancy rate.
CREATE VIEW parkd.report_hourly AS
WITH spaces AS (
  SELECT site, sum(number_of_spaces)::bigint AS spaces FROM parkd.lots WHERE removed_at IS NULL GROUP BY site
)
SELECT t.site, h.hour, (h.hour AT TIME ZONE coalesce(s.time_zone, 'UTC')) AS local_hour,
  count(*) FILTER (WHERE h.hour = date_trunc('hour', t.start_at, 'UTC')) AS started,
  count(*) AS occupied,
  coalesce(sp.spaces, 0) AS spaces
FROM parkd.tickets t
  JOIN parkd.sites s ON s.site = t.site
  LEFT JOIN spaces sp ON sp.site = t.site
  CROSS JOIN LATERAL generate_series(
    date_trunc('hour', t.start_at, 'UTC'),
    least(greatest(t.start_at, coalesce(t.end_at, now()) - interval '1 microsecond'), t.start_at + interval '31 days'),
    interval '1 hour') AS h(hour)
WHERE t.status <> 'canceled'
GROUP BY t.site, h.hour, s.time_zone, sp.spaces;

-- Each terminal (the credential that sent a site's events) over the last 30 days: its last
-- event, beside its site's last event and the box's last pull (every 30 s while it is up, events
-- or not: the sign the box itself is alive).
CREATE VIEW parkd.report_terminals AS
SELECT e.site, e.credential, max(e.received_at) AS last_event_at, count(*) AS events_30d,
  max(max(e.received_at)) OVER (PARTITION BY e.site) AS site_last_event_at,
  s.last_pull_at AS box_last_seen_at
FROM parkd.events e JOIN parkd.sites s ON s.site = e.site
WHERE e.received_at > now() - interval '30 days'
GROUP BY e.site, e.credential, s.last_pull_at;

-- Terminals that went silent: nothing for an hour while their site's other terminals kept
-- sending (`terminal`), or every terminal of a box not seen for 10 minutes (`box`).
CREATE VIEW parkd.report_silent_terminals AS
SELECT site, credential, last_event_at, site_last_event_at, box_last_seen_at,
  CASE WHEN box_last_seen_at IS NULL OR box_last_seen_at < now() - interval '10 minutes'
    THEN 'box' ELSE 'terminal' END AS silent,
  CASE WHEN box_last_seen_at IS NULL OR box_last_seen_at < now() - interval '10 minutes'
    THEN now() - last_event_at ELSE site_last_event_at - last_event_at END AS silent_for
FROM parkd.report_terminals
WHERE site_last_event_at - last_event_at > interval '1 hour'
   OR box_last_seen_at IS NULL OR box_last_seen_at < now() - interval '10 minutes';

GRANT SELECT ON parkd.report_revenue_daily, parkd.report_hourly, parkd.report_terminals,
  parkd.report_silent_terminals TO parkd_reporting;
REVOKE ALL ON FUNCTION parkd.vat_of(bigint, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION parkd.vat_of(bigint, integer) TO parkd_reporting;
