-- Quiet hours and presence leave a trace in `pushes` (issues 23 and 18):
-- * `held`: an end notification or unload reminder that waits (quiet hours, nobody
--   home); the reason says until when. When it goes out, its call is a row of its own.
-- * `dropped`: one given up on after waiting (the door opened, a new cycle started,
--   nobody came home within the limit); the reason says why.
--   Neither is a call: neither counts in the cycle's pushes nor in the daily budget.
--   SQLite cannot change a CHECK constraint in place, so `pushes` is rebuilt as in
--   migration 5, with its indexes and triggers made again.
-- * An end notification belongs to the cycle it ends: one sent after its cycle closed
--   (released after quiet hours) and stored without a cycle is given the appliance's last
--   cycle started before it, as migration 5 did for reminders.

DROP TRIGGER pushes_count_insert;
DROP TRIGGER pushes_count_update;
DROP TRIGGER pushes_count_delete;

CREATE TABLE pushes_v9 (
    id            INTEGER PRIMARY KEY,
    cycle_id      INTEGER REFERENCES cycles (id),
    appliance_id  TEXT NOT NULL REFERENCES appliances (id),
    at            REAL NOT NULL,                     -- when it was decided
    kind          TEXT NOT NULL CHECK (kind IN ('start', 'quiet', 'progress', 'clear', 'end', 'reminder')),
    reason        TEXT NOT NULL,                     -- why the planner made (held, dropped) it
    body          TEXT NOT NULL,
    -- pending: recorded, not yet handed to HA; sending: the HTTP call is in flight;
    -- sent / failed / abandoned: how it ended; superseded: the appliance's next cycle
    -- started before it went out; not_sent: held back (budget), never called;
    -- replayed: planned by `replay --record`, never meant to be called;
    -- held: waiting (quiet hours, nobody home), not a call; dropped: given up after waiting.
    status        TEXT NOT NULL
                  CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'abandoned', 'superseded', 'not_sent',
                                    'replayed', 'held', 'dropped')),
    http_status   INTEGER,
    error         TEXT,
    latency_ms    REAL,
    finished_at   REAL                               -- when it reached a final status
);

INSERT INTO pushes_v9 (id, cycle_id, appliance_id, at, kind, reason, body, status, http_status, error, latency_ms, finished_at)
SELECT p.id,
       coalesce(p.cycle_id, CASE WHEN p.kind = 'end' THEN
           (SELECT c.id FROM cycles AS c WHERE c.appliance_id = p.appliance_id AND c.started_at <= p.at
            ORDER BY c.started_at DESC, c.id DESC LIMIT 1) END),
       p.appliance_id, p.at, p.kind, p.reason, p.body, p.status, p.http_status, p.error, p.latency_ms, p.finished_at
FROM pushes AS p;

DROP TABLE pushes;
ALTER TABLE pushes_v9 RENAME TO pushes;

CREATE INDEX pushes_by_at ON pushes (at);
CREATE INDEX pushes_by_cycle ON pushes (cycle_id, id);
CREATE INDEX pushes_unfinished ON pushes (id) WHERE status IN ('pending', 'sending');

-- cycles.pushes counts the cycle's calls: every status except not_sent, held and dropped.
UPDATE cycles SET pushes = (SELECT count(*) FROM pushes AS p
                            WHERE p.cycle_id = cycles.id AND p.status NOT IN ('not_sent', 'held', 'dropped'));

CREATE TRIGGER pushes_count_insert AFTER INSERT ON pushes
WHEN NEW.cycle_id IS NOT NULL AND NEW.status NOT IN ('not_sent', 'held', 'dropped')
BEGIN
    UPDATE cycles SET pushes = pushes + 1 WHERE id = NEW.cycle_id;
END;

CREATE TRIGGER pushes_count_update AFTER UPDATE OF status, cycle_id ON pushes
WHEN OLD.cycle_id IS NOT NEW.cycle_id
     OR (OLD.status IN ('not_sent', 'held', 'dropped')) <> (NEW.status IN ('not_sent', 'held', 'dropped'))
BEGIN
    UPDATE cycles SET pushes = pushes - 1 WHERE id = OLD.cycle_id AND OLD.status NOT IN ('not_sent', 'held', 'dropped');
    UPDATE cycles SET pushes = pushes + 1 WHERE id = NEW.cycle_id AND NEW.status NOT IN ('not_sent', 'held', 'dropped');
END;

CREATE TRIGGER pushes_count_delete AFTER DELETE ON pushes
WHEN OLD.cycle_id IS NOT NULL AND OLD.status NOT IN ('not_sent', 'held', 'dropped')
BEGIN
    UPDATE cycles SET pushes = pushes - 1 WHERE id = OLD.cycle_id;
END;
