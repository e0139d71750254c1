-- Format 7 (2026-11-27): the warehouse records its format, in warehouse_format.
-- Before it, groundwork/warehouse/schema.py tells an older warehouse's format by what it has.

-- One row per format the warehouse reached, when and by which groundwork: the highest is its
-- format. A newer groundwork migrates a warehouse of a lower one; an older one refuses a higher.
CREATE TABLE IF NOT EXISTS warehouse_format (
    format          INTEGER NOT NULL,
    recorded_at     TIMESTAMP NOT NULL,
    groundwork_version VARCHAR            -- the groundwork version that wrote it
);
