-- Change notices for the cart-view cache (src/server/services/cart-view-cache.ts).
--
-- Each instance keeps the answers of GET carts/{token} in memory and LISTENs on the channel `cart_view_changes`.
-- A write to any row a cart's view is made of sends, when its transaction commits, a tag naming what changed; every
-- instance then drops the views that carry that tag. PostgreSQL folds identical notices of one transaction into one.
--
-- Tags: c:<cart id>, u:<customer id>, f:<offer id>, d:<discount code id>, l:<cart line id> (its gift details),
-- o:<organization id> (the organization, its shipping profiles and tax rates), and * (everything: TRUNCATE).
-- Rows a view never shows are left out: a cart with an order is never cached, so order updates, order lines,
-- payment attempts and changes to an ordered cart send nothing; only an order's creation (or removal) does. Every
-- notice makes its transaction's COMMIT take PostgreSQL's notify lock, so the order's later transactions send none.

CREATE FUNCTION cart_view_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- TG_ARGV[0]: the tag's letter; TG_ARGV[1]: the column holding the id it names
  old_id text;
  new_id text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    old_id := to_jsonb(OLD) ->> TG_ARGV[1];
    IF old_id IS NOT NULL THEN
      PERFORM pg_notify('cart_view_changes', TG_ARGV[0] || ':' || old_id);
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    new_id := to_jsonb(NEW) ->> TG_ARGV[1];
    IF new_id IS NOT NULL AND new_id IS DISTINCT FROM old_id THEN
      PERFORM pg_notify('cart_view_changes', TG_ARGV[0] || ':' || new_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION cart_view_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cart_view_changes', '*');
  RETURN NULL;
END
$$;

-- A new cart is in no cache yet: its creation sends nothing. Nor does a change to an ordered cart (ordered_at set,
-- after its order's creation sent its tag): no view of it is kept.
CREATE TRIGGER cart_view_changes AFTER UPDATE ON carts
  FOR EACH ROW WHEN (NEW.ordered_at IS NULL) EXECUTE FUNCTION cart_view_changed('c', 'id');
CREATE TRIGGER cart_view_removed AFTER DELETE ON carts
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('c', 'id');
CREATE TRIGGER cart_view_changes AFTER INSERT OR UPDATE OR DELETE ON cart_offers
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('c', 'cart_id');
CREATE TRIGGER cart_view_changes AFTER INSERT OR UPDATE OR DELETE ON gift_details
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('l', 'cart_offer_id');
CREATE TRIGGER cart_view_changes AFTER INSERT OR DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('c', 'cart_id');
CREATE TRIGGER cart_view_changes AFTER UPDATE OR DELETE ON customers
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('u', 'id');
CREATE TRIGGER cart_view_changes AFTER INSERT OR UPDATE OR DELETE ON addresses
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('u', 'customer_id');
CREATE TRIGGER cart_view_changes AFTER UPDATE OR DELETE ON offers
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('f', 'id');
CREATE TRIGGER cart_view_changes AFTER UPDATE OR DELETE ON discount_codes
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('d', 'id');
CREATE TRIGGER cart_view_changes AFTER INSERT OR UPDATE OR DELETE ON discount_code_offers
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('d', 'discount_code_id');
CREATE TRIGGER cart_view_changes AFTER UPDATE OR DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('o', 'id');
CREATE TRIGGER cart_view_changes AFTER INSERT OR UPDATE OR DELETE ON shipping_profiles
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('o', 'organization_id');
CREATE TRIGGER cart_view_changes AFTER INSERT OR UPDATE OR DELETE ON tax_rates
  FOR EACH ROW EXECUTE FUNCTION cart_view_changed('o', 'organization_id');

CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON carts
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON cart_offers
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON gift_details
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON customers
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON addresses
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON offers
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON discount_codes
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON discount_code_offers
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON shipping_profiles
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
CREATE TRIGGER cart_view_truncated AFTER TRUNCATE ON tax_rates
  FOR EACH STATEMENT EXECUTE FUNCTION cart_view_truncated();
