-- Order payments: exactly one payment in flight per order, discount uses reserved before any charge, rebill leases,
-- and the built-in test gateway's own ledger (what a real gateway would remember between retries).

-- Set while a payment call for the order is in flight; another submission for the cart waits or is told to.
ALTER TABLE orders ADD COLUMN payment_lease_until timestamptz;
-- One use of the order's discount code is held from before the charge until the order completes or the payment
-- fails, so a usage limit is never exceeded by racing orders.
ALTER TABLE orders ADD COLUMN discount_reserved boolean NOT NULL DEFAULT false;
-- The express payment the order is waiting on.
ALTER TABLE orders ADD COLUMN express_payment_id bigint;
ALTER TABLE orders ADD COLUMN payment_method_id bigint;
ALTER TABLE orders
  ADD FOREIGN KEY (organization_id, payment_method_id) REFERENCES payment_methods (organization_id, id);
ALTER TABLE orders
  ADD FOREIGN KEY (organization_id, express_payment_id) REFERENCES express_payments (organization_id, id);

-- A rebill runner holds a due subscription while it charges it; other runners skip it.
ALTER TABLE subscriptions ADD COLUMN lease_until timestamptz;

-- The built-in test gateway's ledger: one row per charge idempotency key, like a real gateway's records.
CREATE TABLE test_gateway_charges (
  organization_id bigint REFERENCES organizations (id),
  idempotency_key text PRIMARY KEY,
  kind            text NOT NULL CHECK (kind IN ('charge', 'express', 'refund')),
  amount          bigint NOT NULL CHECK (amount >= 0),
  currency        char(3) NOT NULL,
  status          text NOT NULL CHECK (status IN ('approved', 'declined')),
  decline_code    text,
  reference       text NOT NULL,
  payment_method_token text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
