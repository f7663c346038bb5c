-- Prices by cycle (docs/subscriptions.md, "Prices by cycle"): a recurring offer's first cycle may last trial_days
-- instead of its interval, the discounted_cycles after it charge discounted_price, and the subscription ends after
-- total_cycles (null: until cancelled). Only recurring offers have them; a discounted price comes with its count.
ALTER TABLE offers ADD COLUMN trial_days integer CHECK (trial_days BETWEEN 1 AND 730);
ALTER TABLE offers ADD COLUMN discounted_cycles integer CHECK (discounted_cycles BETWEEN 1 AND 120);
ALTER TABLE offers ADD COLUMN discounted_price bigint CHECK (discounted_price >= 0);
ALTER TABLE offers ADD COLUMN total_cycles integer CHECK (total_cycles BETWEEN 2 AND 999);
ALTER TABLE offers ADD CONSTRAINT offers_cycles_shape CHECK (
  (discounted_cycles IS NULL) = (discounted_price IS NULL)
  AND (is_recurring OR (trial_days IS NULL AND discounted_cycles IS NULL AND total_cycles IS NULL))
);
-- The plan as priced with the order (amounts per phase in minor units, cycle 1 first: {"phases": [{"cycles",
-- "amount", "days"}]}), kept by the line's subscription so a later change of the offer never changes its charges.
ALTER TABLE order_lines ADD COLUMN billing_plan jsonb;
ALTER TABLE subscriptions ADD COLUMN billing_plan jsonb;
-- Why a subscription ended when it was not a cancel: plan_completed after its last cycle was charged.
ALTER TABLE subscriptions ADD COLUMN end_reason text CHECK (end_reason IN ('plan_completed'));
