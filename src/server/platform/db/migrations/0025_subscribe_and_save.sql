-- Subscribe and save (docs/subscriptions.md): a one-off offer may let the shopper subscribe to it instead, every
-- subscribe_interval_days at subscribe_percent_off % off; both set or both null.
ALTER TABLE offers ADD COLUMN subscribe_interval_days int, ADD COLUMN subscribe_percent_off int;
ALTER TABLE offers ADD CONSTRAINT offers_subscribe_and_save CHECK (
  (subscribe_interval_days IS NULL) = (subscribe_percent_off IS NULL)
  AND (subscribe_interval_days IS NULL OR NOT is_recurring));
-- Whether the shopper chose to subscribe to a line whose offer allows it.
ALTER TABLE cart_offers ADD COLUMN subscribed boolean NOT NULL DEFAULT false;
-- The percent a subscribed line was ordered at (null: not subscribed and saved), for the order and its subscription.
ALTER TABLE order_lines ADD COLUMN subscribe_and_save_percent int;
