-- A line the shopper removed from an editable cart stays, marked, so that Undo can bring it back as it was (its
-- quantity, its place, its gift details). The cart's reads leave marked lines out (cart-snapshot-repository.ts), so
-- prices, orders and gifts never see them.
ALTER TABLE cart_offers ADD COLUMN removed_at timestamptz;
