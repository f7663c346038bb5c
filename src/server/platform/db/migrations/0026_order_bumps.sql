-- Order bumps (docs/checkout-rules.md, "Order bumps"): up to 3 offers shown as boxes above the pay button.
-- A link's bumps are rows, like its lines (checkout_link_offers): their foreign key keeps each one an offer of the
-- link's organization, and the position keeps the merchant's order. The organization's default list lives in its
-- settings (bumpOfferIds, validated by the merchant API) like its other checkout choices.
CREATE TABLE checkout_link_bumps (
  organization_id  bigint NOT NULL,
  checkout_link_id bigint NOT NULL,
  position         integer NOT NULL CHECK (position BETWEEN 1 AND 3),
  offer_id         bigint NOT NULL,
  PRIMARY KEY (organization_id, checkout_link_id, position),
  UNIQUE (organization_id, checkout_link_id, offer_id),
  FOREIGN KEY (organization_id, checkout_link_id) REFERENCES checkout_links (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id)
);

-- The box's one line of text; null falls back to the offer's title, then its name.
ALTER TABLE offers ADD COLUMN bump_text text CHECK (length(bump_text) BETWEEN 1 AND 200);

-- A ticked bump is a normal line of the cart, flagged. Unticking marks it removed (an order attempt's lines may
-- still point at it), ticking again brings it back: one bump line per offer and cart, whatever two requests race.
ALTER TABLE cart_offers ADD COLUMN is_bump boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX cart_offers_one_bump_per_offer ON cart_offers (organization_id, cart_id, offer_id) WHERE is_bump;

-- The order records which of its lines came from a bump.
ALTER TABLE order_lines ADD COLUMN is_bump boolean NOT NULL DEFAULT false;
