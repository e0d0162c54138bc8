-- Learning from the history (issue 14):
-- * A cycle keeps the finish time shown on the phone beside the one Home Assistant
--   reported: with the finish-time correction they differ, and `stats` compares them.
-- * A finished cycle's unload reminder is a call of its own kind, `reminder`. SQLite
--   cannot change a CHECK constraint in place, so `pushes` is rebuilt as in migration 2,
--   with its indexes and triggers made again as before.

ALTER TABLE cycles ADD COLUMN first_shown_finish REAL;  -- the first finish time shown
ALTER TABLE cycles ADD COLUMN last_shown_finish REAL;   -- the latest finish time shown

DROP TRIGGER pushes_count_insert;
DROP TRIGGER pushes_count_update;
DROP TRIGGER pushes_count_delete;

CREATE TABLE pushes_v3 (
    id            INTEGER PRIMARY KEY,
    cycle_id      INTEGER REFERENCES cycles (id),
    appliance_id  TEXT NOT NULL REFERENCES appliances (id),
    at            REAL NOT NULL,                     -- when it was decided
    kind          TEXT NOT NULL CHECK (kind IN ('start', 'quiet', 'progress', 'clear', 'end', 'reminder')),
    reason        TEXT NOT NULL,                     -- why the planner made (or held) it
    body          TEXT NOT NULL,
    -- pending: recorded, not yet handed to HA; sending: the HTTP call is in flight;
    -- sent / failed / abandoned: how it ended; superseded: the appliance's next cycle
    -- started before it went out; not_sent: held back (budget), never called.
    status        TEXT NOT NULL
                  CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'abandoned', 'superseded', 'not_sent')),
    http_status   INTEGER,
    error         TEXT,
    latency_ms    REAL,
    finished_at   REAL                               -- when it reached a final status
);

INSERT INTO pushes_v3 (id, cycle_id, appliance_id, at, kind, reason, body, status, http_status, error, latency_ms, finished_at)
SELECT id, cycle_id, appliance_id, at, kind, reason, body, status, http_status, error, latency_ms, finished_at FROM pushes;

DROP TABLE pushes;
ALTER TABLE pushes_v3 RENAME TO pushes;

CREATE INDEX pushes_by_at ON pushes (at);
CREATE INDEX pushes_by_cycle ON pushes (cycle_id, id);
CREATE INDEX pushes_unfinished ON pushes (id) WHERE status IN ('pending', 'sending');

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
