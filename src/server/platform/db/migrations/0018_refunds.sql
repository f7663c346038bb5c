-- Refunds made through the merchant API (docs/api.md, "Refunds"; docs/payments.md). A refund is recorded pending,
-- under its order's row lock, before the processor is asked: concurrent refunds of one order see each other and never
-- add up to more than was paid, and a refund whose answer was lost (a crash) is asked again with the same processor
-- idempotency key, derived from the row's id.
CREATE TABLE refunds (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id      bigint NOT NULL,
  order_id             bigint NOT NULL,
  -- the processor that charged the payment, and the payment's reference there (the approved attempt's)
  gateway              text NOT NULL,
  payment_reference    text NOT NULL,
  -- minor units
  amount               bigint NOT NULL CHECK (amount > 0),
  currency             char(3) NOT NULL,
  reason               text,
  status               text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  -- the processor's id of the refund, which its webhooks name (Stripe re_…)
  processor_reference  text,
  error                text,
  -- the request's Idempotency-Key, as its keyed hash (docs/security.md, "What is stored")
  idempotency_key_hash text NOT NULL,
  -- a pending refund is being asked of the processor until then; past it, a retry asks again with the same key
  lease_until          timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id)
);
CREATE INDEX refunds_order ON refunds (organization_id, order_id, id);
CREATE UNIQUE INDEX refunds_processor_reference ON refunds (gateway, processor_reference)
  WHERE processor_reference IS NOT NULL;

-- The test processor refunds in its own ledger, as a real processor does: a refund row names the charge it refunds,
-- and refunds beyond what is left of that charge are refused.
ALTER TABLE test_gateway_charges ADD COLUMN refunds_reference text;
CREATE INDEX test_gateway_charges_refunds ON test_gateway_charges (refunds_reference)
  WHERE refunds_reference IS NOT NULL;
