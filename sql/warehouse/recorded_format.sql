-- The format the warehouse recorded (sql/migrations/007_warehouse_format.sql): its highest.
SELECT max(format) FROM warehouse_format
