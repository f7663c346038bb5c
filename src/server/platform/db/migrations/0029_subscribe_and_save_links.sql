-- Subscribe and save (docs/subscriptions.md): a checkout link's line may start subscribed in the carts it makes.
ALTER TABLE checkout_link_offers ADD COLUMN subscribed boolean NOT NULL DEFAULT false;
-- The unit price a subscribed line would have cost bought once (minor units; null unless subscribed and saved), so
-- the subscriber's page can say what every delivery saves whatever the offer's price becomes.
ALTER TABLE order_lines ADD COLUMN subscribe_and_save_once_price bigint;
