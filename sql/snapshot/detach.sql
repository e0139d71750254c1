-- Close the snapshot attached by sql/snapshot/attach.sql.
DETACH published
