-- Card payments through a processor's frames (docs/payments.md): the server charges single-use tokens, a payment the
-- bank wants authenticated waits as a requires_action attempt, and stored methods may belong to a processor customer.

ALTER TABLE payment_attempts DROP CONSTRAINT payment_attempts_status_check;
ALTER TABLE payment_attempts ADD CONSTRAINT payment_attempts_status_check
  CHECK (status IN ('approved', 'declined', 'error', 'requires_action'));

-- A processor's webhook and the page's authenticated payment find their attempt by the processor's reference.
CREATE INDEX test_gateway_charges_reference ON test_gateway_charges (reference);

CREATE INDEX payment_attempts_reference ON payment_attempts (gateway, gateway_reference)
  WHERE gateway_reference IS NOT NULL;

-- Stripe charges a saved PaymentMethod again with its Customer (cus_…).
ALTER TABLE payment_methods ADD COLUMN gateway_customer text;

ALTER TABLE test_gateway_charges DROP CONSTRAINT test_gateway_charges_status_check;
ALTER TABLE test_gateway_charges ADD CONSTRAINT test_gateway_charges_status_check
  CHECK (status IN ('approved', 'declined', 'requires_action'));

-- The built-in test processor's single-use card tokens: what the number means, never the number or the CVV.
CREATE TABLE test_processor_tokens (
  token      text PRIMARY KEY,
  brand      text NOT NULL,
  last4      char(4) NOT NULL,
  exp_month  integer NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
  exp_year   integer NOT NULL,
  behaviour  text NOT NULL
             CHECK (behaviour IN ('approve', 'decline', 'insufficient_funds', 'processor_error', 'authenticate')),
  test_card  boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at    timestamptz,
  -- the charge that used it: a retry of that charge (same key) is answered, any other use refused
  used_by    text
);

-- Its 3-D Secure challenges: one per charge that asked for one, decided on its challenge page.
CREATE TABLE test_processor_challenges (
  id          text PRIMARY KEY,
  charge_key  text NOT NULL UNIQUE REFERENCES test_gateway_charges (idempotency_key),
  status      text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  decided_at  timestamptz
);
