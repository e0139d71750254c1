"""Data quality for people: the review gates restated as Great Expectations suites
(expectations.py) and rendered as Data Docs (data_docs.py). The SQL gates in sql/checks/ stay
the authority for publishing (groundwork/quality/gates.py)."""
