-- The household's and the people's settings through the local API (issue 23,
-- docs/API.md, "The household"): quiet hours, and each person's kinds, quiet hours and
-- language, one row per scope and key, over the configuration's (which stays the base).
-- scope: 'household', or a person entity ('person.alice'); value: JSON as the API takes it.

CREATE TABLE household_settings (
    scope      TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,     -- JSON: "22:00-07:00", "off", ["end","reminder"], "de", null
    changed_at REAL NOT NULL,     -- Unix seconds
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
