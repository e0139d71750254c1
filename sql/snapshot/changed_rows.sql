-- The keys of a table's rows that differ between the snapshot attached as `previous` and what the
-- table holds now ($rows): added, removed or changed in any column. As temp table
-- changed_$table.
-- Parameters: $table, $key, $rows.
CREATE OR REPLACE TEMP TABLE changed_$table AS
SELECT $key
FROM (SELECT $key, t AS row FROM $rows t) n
FULL JOIN (SELECT $key, t AS row FROM previous.$table t) o USING ($key)
WHERE n.row IS DISTINCT FROM o.row
