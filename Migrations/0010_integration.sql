-- The Home Assistant integration announced itself (issue 31, item 9; docs/API.md,
-- "The integration"): one row while an integration is configured, so that the service
-- never posts its REST entities (sensor.cycletrack_*) beside the integration's, across
-- restarts. rest_entities_removed: 1 once the states the service had posted were deleted
-- from HA (or HA had forgotten them); 0 while some may still be there (retried).

CREATE TABLE integration (
    id                    INTEGER PRIMARY KEY CHECK (id = 1),
    announced_at          REAL NOT NULL,     -- Unix seconds
    rest_entities_removed INTEGER NOT NULL DEFAULT 0 CHECK (rest_entities_removed IN (0, 1))
);
