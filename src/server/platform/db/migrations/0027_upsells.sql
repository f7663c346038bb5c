-- One-click upsells after the purchase (docs/api.md, "Upsells"). A checkout link names up to 3 upsell steps, each
-- with an optional downsell shown when the upsell is declined.
CREATE TABLE checkout_link_upsells (
  organization_id   bigint NOT NULL,
  checkout_link_id  bigint NOT NULL,
  position          integer NOT NULL CHECK (position BETWEEN 1 AND 3),
  offer_id          bigint NOT NULL,
  downsell_offer_id bigint,
  PRIMARY KEY (organization_id, checkout_link_id, position),
  FOREIGN KEY (organization_id, checkout_link_id) REFERENCES checkout_links (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id),
  FOREIGN KEY (organization_id, downsell_offer_id) REFERENCES offers (organization_id, id)
);

-- An accepted upsell is an order of its own, in a cart of its own, linked to the order it follows.
ALTER TABLE orders ADD COLUMN parent_order_id bigint;
ALTER TABLE orders ADD FOREIGN KEY (organization_id, parent_order_id) REFERENCES orders (organization_id, id);
CREATE INDEX orders_parent ON orders (organization_id, parent_order_id) WHERE parent_order_id IS NOT NULL;

ALTER TABLE carts DROP CONSTRAINT carts_source_check;
ALTER TABLE carts ADD CONSTRAINT carts_source_check
  CHECK (source IN ('merchant', 'link', 'gift_claim', 'demo', 'upsell'));

-- Each offer shown after an order, in the order shown: `step` counts them (1, 2, …); `position` is the link's step
-- and `is_downsell` whether this is its downsell. One row per shown offer, so a step is accepted at most once, and a
-- linked order belongs to one step only.
CREATE TABLE order_upsell_steps (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id  bigint NOT NULL,
  order_id         bigint NOT NULL,
  step             integer NOT NULL CHECK (step BETWEEN 1 AND 6),
  position         integer NOT NULL CHECK (position BETWEEN 1 AND 3),
  is_downsell      boolean NOT NULL,
  offer_id         bigint NOT NULL,
  status           text NOT NULL CHECK (status IN ('offered', 'accepted', 'declined', 'expired')),
  offered_at       timestamptz NOT NULL,
  -- the countdown's end, kept by the server
  expires_at       timestamptz NOT NULL,
  decided_at       timestamptz,
  -- the order an accept made (set when the accept starts its charge; complete once accepted)
  linked_order_id  bigint UNIQUE,
  UNIQUE (organization_id, id),
  UNIQUE (order_id, step),
  UNIQUE (order_id, position, is_downsell),
  CHECK (status <> 'accepted' OR linked_order_id IS NOT NULL),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id),
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id),
  FOREIGN KEY (organization_id, linked_order_id) REFERENCES orders (organization_id, id)
);
