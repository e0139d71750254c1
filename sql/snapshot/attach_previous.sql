-- Open the published snapshot as it is, read-only, as schema `previous`: what an update of it
-- compares the warehouse with (groundwork/warehouse/snapshot_update.py). Readers may hold it open;
-- a process that holds it open for writing makes this fail.
-- Parameters: $path.
ATTACH $path AS previous (READ_ONLY)
