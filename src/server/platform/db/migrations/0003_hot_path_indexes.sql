-- Indexes for reads on every cart view, which otherwise walk all of an organization's rows as it grows.

-- GET carts/{token} reads the cart's latest payment method (findLastPaymentMethod): by cart, newest first.
CREATE INDEX payment_attempts_cart ON payment_attempts (organization_id, cart_id, id DESC);

-- A completed order's cart view lists the subscriptions it started (findOrderSubscriptionNotices).
CREATE INDEX subscriptions_order ON subscriptions (organization_id, order_id);
