-- Close a database attached by sql/snapshot/attach.sql or attach_previous.sql.
-- Parameters: $database.
DETACH $database
