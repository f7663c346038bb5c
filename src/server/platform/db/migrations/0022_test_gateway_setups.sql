-- The built-in test processor records a card saved for later whose bank asks for 3-D Secure (docs/payments.md, "The
-- built-in test processor"), so that its challenge, keyed by the ledger's idempotency key, has a row to belong to.
ALTER TABLE test_gateway_charges DROP CONSTRAINT test_gateway_charges_kind_check;
ALTER TABLE test_gateway_charges ADD CONSTRAINT test_gateway_charges_kind_check
  CHECK (kind IN ('charge', 'express', 'refund', 'setup'));
