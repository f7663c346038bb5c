-- Prepaid plans (docs/subscriptions.md, "Prepaid plans"): one payment covers prepaid_cycles cycles of a recurring
-- offer; each later cycle of the period is a $0 fulfilment order. The plan itself is kept with the order line and the
-- subscription in billing_plan (its "prepaid" part), as prices by cycle keeps its phases.
ALTER TABLE offers ADD COLUMN prepaid_cycles integer CHECK (prepaid_cycles BETWEEN 2 AND 24);
ALTER TABLE offers ADD COLUMN prepaid_renewal text CHECK (prepaid_renewal IN ('renew', 'end'));
ALTER TABLE offers ADD CONSTRAINT offers_prepaid_complete
  CHECK ((prepaid_cycles IS NULL) = (prepaid_renewal IS NULL));

-- The last cycle a prepaid subscription has had (charged or fulfilled), counted from 1 (the order's); null otherwise.
ALTER TABLE subscriptions ADD COLUMN prepaid_shipped_cycle integer;

-- A fulfilment order names its subscription, the order that paid for it, and its cycle: one order per subscription
-- and cycle, whatever two rebill runs race or one crashes after writing it.
ALTER TABLE orders ADD COLUMN fulfilment_of_subscription_id bigint;
ALTER TABLE orders ADD COLUMN fulfilment_of_order_id bigint;
ALTER TABLE orders ADD COLUMN fulfilment_cycle integer;
ALTER TABLE orders ADD FOREIGN KEY (organization_id, fulfilment_of_subscription_id)
  REFERENCES subscriptions (organization_id, id);
ALTER TABLE orders ADD FOREIGN KEY (organization_id, fulfilment_of_order_id) REFERENCES orders (organization_id, id);
CREATE UNIQUE INDEX orders_one_fulfilment_per_cycle ON orders (organization_id, fulfilment_of_subscription_id, fulfilment_cycle)
  WHERE fulfilment_of_subscription_id IS NOT NULL;

ALTER TABLE carts DROP CONSTRAINT carts_source_check;
ALTER TABLE carts ADD CONSTRAINT carts_source_check
  CHECK (source IN ('merchant', 'link', 'gift_claim', 'demo', 'upsell', 'prepaid_fulfilment'));
