-- The published run's audit trail (the current_audit_trail view), written as audit_trail.json.
SELECT * FROM current_audit_trail
