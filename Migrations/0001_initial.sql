-- cycletrack's history: appliances, their cycles, what Home Assistant showed, and
-- every push sent (or held back) for them.
--
-- Conventions:
-- * Times are REAL Unix seconds (UTC), with sub-second precision: some appliances
--   report several times a second.
-- * Text enums are guarded by CHECK constraints; the tables are not STRICT so that
--   SQLite versions before 3.37 can still read the file.
-- * The migrator runs this inside BEGIN IMMEDIATE together with the
--   `PRAGMA user_version` bump; it holds no transaction statements of its own.

-- An appliance cycletrack has tracked. `id` is the part after `appliance_` in the tag.
CREATE TABLE appliances (
    id          TEXT PRIMARY KEY NOT NULL,
    name        TEXT NOT NULL,
    first_seen  REAL NOT NULL,
    last_seen   REAL NOT NULL
);

-- One run of an appliance, from start to end. `outcome` and `ended_at` stay NULL
-- while the cycle is open.
CREATE TABLE cycles (
    id                      INTEGER PRIMARY KEY,
    appliance_id            TEXT NOT NULL REFERENCES appliances (id),
    program                 TEXT,                    -- the program key as HA shows it
    started_at              REAL NOT NULL,
    ended_at                REAL,
    outcome                 TEXT CHECK (outcome IN ('finished', 'aborted', 'failed', 'lost')),
    first_predicted_finish  REAL,                    -- the first finish time HA gave
    last_predicted_finish   REAL,                    -- the latest finish time HA gave
    max_progress            INTEGER CHECK (max_progress BETWEEN 0 AND 100),
    pushes                  INTEGER NOT NULL DEFAULT 0,  -- kept by the triggers below
    energy_start            REAL,                    -- the energy counter at the start, kWh
    energy_kwh              REAL CHECK (energy_kwh >= 0),  -- counter at the end minus at the start
    source                  TEXT NOT NULL CHECK (source IN ('run', 'replay', 'demo')),
    CHECK ((outcome IS NULL) = (ended_at IS NULL))
);

-- `query` lists cycles newest first, overall and per appliance; `stats` reads ranges.
CREATE INDEX cycles_by_started_at ON cycles (started_at);
CREATE INDEX cycles_by_appliance_started_at ON cycles (appliance_id, started_at);
-- Open cycles are looked up at every start of the service.
CREATE INDEX cycles_open ON cycles (appliance_id) WHERE outcome IS NULL;

-- What Home Assistant showed for an appliance, as changes: `changed` is a JSON object
-- of role -> state string holding only the roles that differ from the appliance's
-- previous observation (null for a role that is no longer reported). A row with
-- `full = 1` holds every role instead: the first row of an appliance, the first row
-- after the cycle changes (so each cycle begins with a complete picture), and
-- periodically after that, so that the state at any row is rebuilt by accumulating
-- from the nearest full row before it.
CREATE TABLE observations (
    id            INTEGER PRIMARY KEY,
    appliance_id  TEXT NOT NULL REFERENCES appliances (id),
    cycle_id      INTEGER REFERENCES cycles (id),    -- NULL while no cycle is open
    at            REAL NOT NULL,
    changed       TEXT NOT NULL CHECK (json_valid(changed)),
    full          INTEGER NOT NULL DEFAULT 0 CHECK (full IN (0, 1))
);

CREATE INDEX observations_by_cycle ON observations (cycle_id, id);
CREATE INDEX observations_by_appliance ON observations (appliance_id, id);
CREATE INDEX observations_full ON observations (appliance_id, id) WHERE full = 1;

-- Every Supernotify call cycletrack made or decided not to make: the audit trail
-- behind "why didn't my phone show it?" and the source of the daily budget count.
-- `body` is the exact JSON sent (it never contains the Home Assistant token).
CREATE TABLE pushes (
    id            INTEGER PRIMARY KEY,
    cycle_id      INTEGER REFERENCES cycles (id),
    appliance_id  TEXT NOT NULL REFERENCES appliances (id),
    at            REAL NOT NULL,                     -- when it was decided
    kind          TEXT NOT NULL CHECK (kind IN ('start', 'quiet', 'progress', 'clear', 'end')),
    reason        TEXT NOT NULL,                     -- why the planner made (or held) it
    body          TEXT NOT NULL,
    -- pending: recorded, not yet handed to HA; sending: the HTTP call is in flight;
    -- sent / failed / abandoned: how it ended; not_sent: held back (budget), never called.
    status        TEXT NOT NULL
                  CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'abandoned', 'not_sent')),
    http_status   INTEGER,
    error         TEXT,
    latency_ms    REAL,
    finished_at   REAL                               -- when it reached a final status
);

-- The daily budget counts pushes by `at` within a UTC day.
CREATE INDEX pushes_by_at ON pushes (at);
CREATE INDEX pushes_by_cycle ON pushes (cycle_id, id);
-- Calls left pending or sending by a crash are picked up at the next start.
CREATE INDEX pushes_unfinished ON pushes (id) WHERE status IN ('pending', 'sending');

-- cycles.pushes counts the cycle's calls, every status except not_sent (a call
-- held back was never made), whoever writes the rows.
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

-- The cycle state machine's state per appliance, saved so a restart resumes the
-- cycle the phone already shows.
CREATE TABLE tracker_state (
    appliance_id  TEXT PRIMARY KEY NOT NULL REFERENCES appliances (id),
    state         TEXT NOT NULL CHECK (json_valid(state)),
    updated_at    REAL NOT NULL
);
