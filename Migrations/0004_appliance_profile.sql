-- Other brands and smart plugs (issue 12):
-- * The brand profile an appliance's states were read with (`home_connect`, `miele`,
--   ..., `plug`), so that `replay --cycle` reads a stored cycle as `run` did. NULL
--   (appliances recorded before version 4) is Home Connect.
-- * Whether a cycle's progress and finish time were estimated from the appliance's past
--   cycles (a smart plug's) rather than reported: 1, else NULL.

ALTER TABLE appliances ADD COLUMN profile TEXT;
ALTER TABLE cycles ADD COLUMN progress_estimated INTEGER;
