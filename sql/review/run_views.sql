-- The run under review, as the relations the checks in sql/checks/ read.
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
