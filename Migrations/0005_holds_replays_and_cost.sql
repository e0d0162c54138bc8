-- The history page tells what the phone showed (issue 22):
-- * A call a recorded replay planned is `replayed`, not `not_sent`: `not_sent` is kept
--   for the calls the planner held back (budget), which are now stored with their reason.
--   SQLite cannot change a CHECK constraint in place, so `pushes` is rebuilt as in
--   migration 2, with its indexes and triggers made again as before.
-- * A reminder belongs to the cycle it reminds of: reminders stored without a cycle are
--   given the appliance's last cycle started before them.
-- * A cycle's cost, from the energy and a price (fixed, or an HA price entity read during
--   the cycle), and the currency it is in.

DROP TRIGGER pushes_count_insert;
DROP TRIGGER pushes_count_update;
DROP TRIGGER pushes_count_delete;

CREATE TABLE pushes_v5 (
    id            INTEGER PRIMARY KEY,
    cycle_id      INTEGER REFERENCES cycles (id),
    appliance_id  TEXT NOT NULL REFERENCES appliances (id),
    at            REAL NOT NULL,                     -- when it was decided
    kind          TEXT NOT NULL CHECK (kind IN ('start', 'quiet', 'progress', 'clear', 'end', 'reminder')),
    reason        TEXT NOT NULL,                     -- why the planner made (or held) it
    body          TEXT NOT NULL,
    -- pending: recorded, not yet handed to HA; sending: the HTTP call is in flight;
    -- sent / failed / abandoned: how it ended; superseded: the appliance's next cycle
    -- started before it went out; not_sent: held back (budget), never called;
    -- replayed: planned by `replay --record`, never meant to be called.
    status        TEXT NOT NULL
                  CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'abandoned', 'superseded', 'not_sent', 'replayed')),
    http_status   INTEGER,
    error         TEXT,
    latency_ms    REAL,
    finished_at   REAL                               -- when it reached a final status
);

INSERT INTO pushes_v5 (id, cycle_id, appliance_id, at, kind, reason, body, status, http_status, error, latency_ms, finished_at)
SELECT p.id,
       coalesce(p.cycle_id, CASE WHEN p.kind = 'reminder' THEN
           (SELECT c.id FROM cycles AS c WHERE c.appliance_id = p.appliance_id AND c.started_at <= p.at
            ORDER BY c.started_at DESC, c.id DESC LIMIT 1) END),
       p.appliance_id, p.at, p.kind, p.reason, p.body,
       CASE WHEN p.status = 'not_sent' AND p.cycle_id IN (SELECT id FROM cycles WHERE source = 'replay') THEN 'replayed'
            ELSE p.status END,
       p.http_status, p.error, p.latency_ms, p.finished_at
FROM pushes AS p;

DROP TABLE pushes;
ALTER TABLE pushes_v5 RENAME TO pushes;

CREATE INDEX pushes_by_at ON pushes (at);
CREATE INDEX pushes_by_cycle ON pushes (cycle_id, id);
CREATE INDEX pushes_unfinished ON pushes (id) WHERE status IN ('pending', 'sending');

-- cycles.pushes counts the cycle's calls, every status except not_sent (held back).
UPDATE cycles SET pushes = (SELECT count(*) FROM pushes AS p WHERE p.cycle_id = cycles.id AND p.status <> 'not_sent');

CREATE TRIGGER pushes_count_insert AFTER INSERT ON pushes
WHEN NEW.cycle_id IS NOT NULL AND NEW.status <> 'not_sent'
BEGIN
    UPDATE cycles SET pushes = pushes + 1 WHERE id = NEW.cycle_id;
END;

CREATE TRIGGER pushes_count_update AFTER UPDATE OF status, cycle_id ON pushes
WHEN OLD.cycle_id IS NOT NEW.cycle_id OR (OLD.status = 'not_sent') <> (NEW.status = 'not_sent')
BEGIN
    UPDATE cycles SET pushes = pushes - 1 WHERE id = OLD.cycle_id AND OLD.status <> 'not_sent';
    UPDATE cycles SET pushes = pushes + 1 WHERE id = NEW.cycle_id AND NEW.status <> 'not_sent';
END;

CREATE TRIGGER pushes_count_delete AFTER DELETE ON pushes
WHEN OLD.cycle_id IS NOT NULL AND OLD.status <> 'not_sent'
BEGIN
    UPDATE cycles SET pushes = pushes - 1 WHERE id = OLD.cycle_id;
END;

ALTER TABLE cycles ADD COLUMN cost REAL;        -- what the cycle's energy cost, in `currency`
ALTER TABLE cycles ADD COLUMN currency TEXT;    -- EUR, GBP, ... as configured or as the price entity's unit says
