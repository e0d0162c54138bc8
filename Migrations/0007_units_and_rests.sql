-- Every brand and every plug cycle ends on time (issue 21):
-- * The entities' units of measurement with what is recorded, so that `replay --cycle`
--   reads a stored duration or energy in the unit `run` read it in: a JSON object of
--   role to unit (`{"remaining_time":"min"}`), written on a full row and whenever the
--   units change; NULL: as on the row before (rows recorded before version 7 have none).
-- * A smart plug cycle's longest rest inside it (below off_watts with more of the cycle
--   after it), in seconds: the appliance's next cycles may rest as long (docs/PLUGS.md).

ALTER TABLE observations ADD COLUMN units TEXT;
ALTER TABLE cycles ADD COLUMN longest_rest_seconds REAL;
