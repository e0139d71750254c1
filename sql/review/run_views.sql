-- The run under review, as the relations the checks in sql/checks/ read. `fresh_<table>` holds
-- only the rows the run computed itself: the per-row checks of document text read those, since a
-- row the run takes from an earlier run (its lineage) passed the same check there against the
-- same document text (reuse needs equal check versions, and a changed document is never reused).
-- So does requirements_stand_alone, which compares a requirement with its own document's only:
-- a document's rows are all the run's own or all taken from one earlier run.
-- Parameters: $chunks, $requirements, $verifications, $answers, $statements, $citations, $claims,
--   $fresh_chunks, $fresh_requirements.
CREATE OR REPLACE TEMP VIEW run_chunks AS
    SELECT * FROM $chunks;
CREATE OR REPLACE TEMP VIEW run_requirements AS
    SELECT * FROM $requirements;
CREATE OR REPLACE TEMP VIEW run_verifications AS
    SELECT * FROM $verifications;
CREATE OR REPLACE TEMP VIEW run_answers AS
    SELECT * FROM $answers;
CREATE OR REPLACE TEMP VIEW run_statements AS
    SELECT * FROM $statements;
CREATE OR REPLACE TEMP VIEW run_citations AS
    SELECT * FROM $citations;
CREATE OR REPLACE TEMP VIEW run_claims AS
    SELECT * FROM $claims;
CREATE OR REPLACE TEMP VIEW fresh_chunks AS
    SELECT * FROM $fresh_chunks;
CREATE OR REPLACE TEMP VIEW fresh_requirements AS
    SELECT * FROM $fresh_requirements;
