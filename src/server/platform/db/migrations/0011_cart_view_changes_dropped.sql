-- The change notices of 0004 and 0007 are gone with the cart views they kept true: GET carts/{token} reads the cart
-- from the database every time, so nothing LISTENs on cart_view_changes any more. Every write to a cart, its lines,
-- its order, its customer, an offer, a code, a shipping profile or a tax rate no longer sends a notice nobody hears
-- (nor takes PostgreSQL's notify lock at its COMMIT). IF EXISTS throughout: a database someone already cleaned up by
-- hand migrates too.
DROP TRIGGER IF EXISTS cart_view_changes ON carts;
DROP TRIGGER IF EXISTS cart_view_removed ON carts;
DROP TRIGGER IF EXISTS cart_view_changes ON cart_offers;
DROP TRIGGER IF EXISTS cart_view_changes ON gift_details;
DROP TRIGGER IF EXISTS cart_view_changes ON orders;
DROP TRIGGER IF EXISTS cart_view_changes ON customers;
DROP TRIGGER IF EXISTS cart_view_changes ON addresses;
DROP TRIGGER IF EXISTS cart_view_changes ON offers;
DROP TRIGGER IF EXISTS cart_view_changes ON discount_codes;
DROP TRIGGER IF EXISTS cart_view_changes ON discount_code_offers;
DROP TRIGGER IF EXISTS cart_view_changes ON organizations;
DROP TRIGGER IF EXISTS cart_view_changes ON shipping_profiles;
DROP TRIGGER IF EXISTS cart_view_changes ON tax_rates;

DROP TRIGGER IF EXISTS cart_view_truncated ON carts;
DROP TRIGGER IF EXISTS cart_view_truncated ON cart_offers;
DROP TRIGGER IF EXISTS cart_view_truncated ON gift_details;
DROP TRIGGER IF EXISTS cart_view_truncated ON orders;
DROP TRIGGER IF EXISTS cart_view_truncated ON customers;
DROP TRIGGER IF EXISTS cart_view_truncated ON addresses;
DROP TRIGGER IF EXISTS cart_view_truncated ON offers;
DROP TRIGGER IF EXISTS cart_view_truncated ON discount_codes;
DROP TRIGGER IF EXISTS cart_view_truncated ON discount_code_offers;
DROP TRIGGER IF EXISTS cart_view_truncated ON organizations;
DROP TRIGGER IF EXISTS cart_view_truncated ON shipping_profiles;
DROP TRIGGER IF EXISTS cart_view_truncated ON tax_rates;

-- CASCADE: a trigger made by hand on one of these functions would only send notices nobody hears; it goes too.
DROP FUNCTION IF EXISTS cart_view_changed() CASCADE;
DROP FUNCTION IF EXISTS cart_view_truncated() CASCADE;
