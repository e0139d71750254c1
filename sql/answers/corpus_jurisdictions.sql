-- The jurisdictions the active documents are the law of ("US-Federal", "US-NY", ...), for a
-- question naming a state's law the corpus may not hold (groundwork/verify/absent.py).
SELECT DISTINCT jurisdiction
FROM document_rows
WHERE status = 'active' AND jurisdiction IS NOT NULL
