-- A cart's lines and a line's gift details, found by an index that names the organization too, as every query here
-- does (WHERE organization_id = $1 AND cart_id = ...). With only (cart_id, position) and (cart_offer_id), the generic
-- plan of a prepared statement made before the tables' first ANALYZE (a new database's first minutes, until
-- autovacuum gets to them) combined the cart's index with the organization's one, walking every line of the
-- organization on each cart read: 0.43 ms of the database's time per cart read in the benchmark, against 0.09 ms
-- once analyzed, and growing with the organization (tests/api/database.test.ts, "query plans"). These take both
-- columns in one index scan, and key the lines by organization for sharding (docs/operations.md).
-- Building them locks the two tables for writes once, for the time it takes to index their rows.
ALTER TABLE cart_offers ADD CONSTRAINT cart_offers_cart_position UNIQUE (organization_id, cart_id, position);
-- Implied by the new one: a cart belongs to one organization.
ALTER TABLE cart_offers DROP CONSTRAINT cart_offers_cart_id_position_key;
-- gift_details keeps UNIQUE (cart_offer_id): saving a gift upserts ON CONFLICT (cart_offer_id).
ALTER TABLE gift_details ADD CONSTRAINT gift_details_line UNIQUE (organization_id, cart_offer_id);

-- An organization's public_id (the name in its checkout links) never changes, and organizations are never deleted: the
-- server remembers which id a public_id names once it has read it (organization-directory.ts). Nothing here changes
-- it; this refuses a change made by hand, which would leave every running instance naming the wrong organization.
CREATE FUNCTION organizations_public_id_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'an organization''s public_id cannot change (it is in every checkout link made for it)'
    USING ERRCODE = 'check_violation';
END
$$;
CREATE TRIGGER organizations_public_id_fixed
  BEFORE UPDATE OF public_id ON organizations
  FOR EACH ROW WHEN (OLD.public_id IS DISTINCT FROM NEW.public_id)
  EXECUTE FUNCTION organizations_public_id_fixed();
