-- The run under review, as the relations the checks in sql/checks/ read. `fresh_<table>` holds
-- only the rows the run computed itself: the per-row checks of document text read those, since a
-- row copied from the reused run passed the same check there against the same document text
-- (reuse needs equal check versions, and a document whose text changed is never copied).
CREATE OR REPLACE TEMP VIEW run_chunks AS
    SELECT * FROM read_parquet({chunks}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW run_requirements AS
    SELECT * FROM read_parquet({requirements}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW run_verifications AS
    SELECT * FROM read_parquet({verifications}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW run_answers AS
    SELECT * FROM read_parquet({answers}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW run_statements AS
    SELECT * FROM read_parquet({statements}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW run_citations AS
    SELECT * FROM read_parquet({citations}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW run_claims AS
    SELECT * FROM read_parquet({claims}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW fresh_chunks AS
    SELECT * FROM read_parquet({fresh_chunks}, hive_partitioning = false);
CREATE OR REPLACE TEMP VIEW fresh_requirements AS
    SELECT * FROM read_parquet({fresh_requirements}, hive_partitioning = false);
