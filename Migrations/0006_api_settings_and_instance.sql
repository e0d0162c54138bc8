-- The local API (issue 20, docs/API.md):
-- * settings changed through the API, one row per appliance and key, over the
--   configuration's (which stays the base): the value as JSON, as the API takes it;
-- * this service's instance id, a UUID made once: the Home Assistant integration's
--   unique id for the service.

CREATE TABLE appliance_settings (
    appliance_id TEXT NOT NULL,
    key          TEXT NOT NULL,
    value        TEXT NOT NULL,     -- JSON: true, 30, {"step":10,"fine_from":90,"fine_step":2}
    changed_at   REAL NOT NULL,     -- Unix seconds
    PRIMARY KEY (appliance_id, key)
) WITHOUT ROWID;

CREATE TABLE service_instance (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    instance_id TEXT NOT NULL,
    created_at  REAL NOT NULL
);
