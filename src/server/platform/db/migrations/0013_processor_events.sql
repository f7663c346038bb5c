-- The card processor's webhooks (docs/payments.md, "Stripe"): each event is handled once, and the refunds and disputes
-- they tell of are kept against the order they concern.

-- Events handled, by the processor's event id: a redelivered event is answered without being handled again.
CREATE TABLE processor_events (
  gateway      text NOT NULL,
  event_id     text NOT NULL,
  type         text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (gateway, event_id)
);

-- Refunds and disputes of an order's payments, as the processor reported them or as we asked for them.
CREATE TABLE payment_events (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL,
  order_id        bigint NOT NULL,
  gateway         text NOT NULL,
  -- the payment's reference at the processor (Stripe: the PaymentIntent, pi_…)
  reference       text NOT NULL,
  -- what this row is recorded from, once: the processor's event id, or the refund's id for a refund we made
  source_id       text NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('refund', 'dispute')),
  -- minor units; for a refund reported by the processor, the payment's total refunded so far
  amount          bigint NOT NULL CHECK (amount >= 0),
  currency        char(3) NOT NULL,
  -- refund: refunded | partially_refunded | requested; dispute: the processor's dispute status
  status          text NOT NULL,
  reason          text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (gateway, source_id),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id)
);
CREATE INDEX payment_events_order ON payment_events (organization_id, order_id);
