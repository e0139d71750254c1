SELECT * FROM current_audit_trail
