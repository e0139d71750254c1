-- The published run's claims: how many the review found supported, partial or unsupported.
SELECT run_id, status, claims::BIGINT AS claims, supported::BIGINT AS supported,
       partial::BIGINT AS partial, unsupported::BIGINT AS unsupported, unsupported_claim_rate
FROM dashboard_claim_quality
