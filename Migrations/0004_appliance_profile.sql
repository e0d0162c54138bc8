-- Other brands and smart plugs (issue 12): the brand profile an appliance's states were
-- read with (`home_connect`, `miele`, ..., `plug`), so that `replay --cycle` reads a
-- stored cycle as `run` did. NULL (appliances recorded before version 4) is Home Connect.

ALTER TABLE appliances ADD COLUMN profile TEXT;
