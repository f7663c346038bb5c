-- Secure Checkout: the initial data model.
-- Conventions: money is bigint in the currency's minor units (cents); every business table carries organization_id
-- and child rows reference their parent through (organization_id, parent_id), so a row can never point at another
-- organization's data and the schema can be distributed by organization_id later (e.g. Citus).

CREATE TABLE organizations (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id       text NOT NULL UNIQUE CHECK (public_id ~ '^[a-z0-9][a-z0-9_-]{2,63}$'),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  currency        char(3) NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  -- client options, section order, legal links, subscription terms text (validated by src/contract/organization.ts)
  settings        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE merchant_api_keys (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  -- sha256 of the key; the key itself is shown once and never stored
  key_hash        text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  key_prefix      text NOT NULL,
  label           text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_used_at    timestamptz,
  revoked_at      timestamptz
);
CREATE INDEX merchant_api_keys_organization ON merchant_api_keys (organization_id);

CREATE TABLE offers (
  id                          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id             bigint NOT NULL REFERENCES organizations (id),
  offer_name                  text NOT NULL CHECK (length(offer_name) BETWEEN 1 AND 200),
  offer_title                 text NOT NULL DEFAULT '',
  item_id                     text NOT NULL DEFAULT '',
  item_name                   text NOT NULL CHECK (length(item_name) BETWEEN 1 AND 200),
  item_image                  text,
  item_category               text NOT NULL DEFAULT '',
  -- [{ "name": "Size", "value": "M" }]
  item_options                jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- for subscriptions whose first shipment differs from later ones (a starter kit)
  override_initial_item_id    text,
  override_initial_item_name  text,
  price                       bigint NOT NULL CHECK (price >= 0),
  is_recurring                boolean NOT NULL DEFAULT false,
  billing_interval_days       integer CHECK (billing_interval_days BETWEEN 1 AND 730),
  -- later-cycle price; null means the same as price
  next_price                  bigint CHECK (next_price >= 0),
  is_giftable                 boolean NOT NULL DEFAULT false,
  is_taxable                  boolean NOT NULL DEFAULT true,
  requires_shipping           boolean NOT NULL DEFAULT true,
  -- per-unit shipping charged for this offer on top of any shipping profile
  shipping_price              bigint NOT NULL DEFAULT 0 CHECK (shipping_price >= 0),
  active                      boolean NOT NULL DEFAULT true,
  created_at                  timestamptz NOT NULL DEFAULT now(),
  updated_at                  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  CONSTRAINT offers_recurring_shape CHECK (
    (is_recurring AND billing_interval_days IS NOT NULL)
    OR (NOT is_recurring AND billing_interval_days IS NULL AND next_price IS NULL)
  )
);

CREATE TABLE discount_codes (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  -- stored upper-case; shoppers' input is matched case-insensitively
  code            text NOT NULL CHECK (code ~ '^[A-Z0-9][A-Z0-9_-]{0,63}$'),
  kind            text NOT NULL CHECK (kind IN ('percent', 'fixed')),
  -- percent codes: basis points (1000 = 10%); fixed codes: minor units
  percent_off_bp  integer CHECK (percent_off_bp BETWEEN 1 AND 10000),
  amount_off      bigint CHECK (amount_off > 0),
  starts_at       timestamptz,
  ends_at         timestamptz,
  usage_limit     integer CHECK (usage_limit > 0),
  usage_count     integer NOT NULL DEFAULT 0 CHECK (usage_count >= 0),
  min_subtotal    bigint NOT NULL DEFAULT 0 CHECK (min_subtotal >= 0),
  active          boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  UNIQUE (organization_id, code),
  CONSTRAINT discount_codes_kind_shape CHECK (
    (kind = 'percent' AND percent_off_bp IS NOT NULL AND amount_off IS NULL)
    OR (kind = 'fixed' AND amount_off IS NOT NULL AND percent_off_bp IS NULL)
  ),
  -- the last line of defence for usage limits: even a racing redemption cannot exceed the limit
  CONSTRAINT discount_codes_usage_within_limit CHECK (usage_limit IS NULL OR usage_count <= usage_limit),
  CONSTRAINT discount_codes_window CHECK (starts_at IS NULL OR ends_at IS NULL OR starts_at < ends_at)
);

-- A code restricted to some offers; a code with no rows here applies to the whole order.
CREATE TABLE discount_code_offers (
  organization_id  bigint NOT NULL,
  discount_code_id bigint NOT NULL,
  offer_id         bigint NOT NULL,
  PRIMARY KEY (organization_id, discount_code_id, offer_id),
  FOREIGN KEY (organization_id, discount_code_id) REFERENCES discount_codes (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id)
);

CREATE TABLE shipping_profiles (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- ISO 3166-1 alpha-2 codes this profile ships to
  countries       text[] NOT NULL CHECK (cardinality(countries) > 0),
  price           bigint NOT NULL CHECK (price >= 0),
  -- free when the discounted item subtotal reaches this amount; null = never free
  free_over       bigint CHECK (free_over >= 0),
  active          boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id)
);

CREATE TABLE tax_rates (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  country         char(2) NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  -- null: the rate for the whole country; a state's own rate wins over it
  state           text,
  -- parts per million: 82500 = 8.25%
  rate_ppm        integer NOT NULL CHECK (rate_ppm BETWEEN 0 AND 1000000),
  name            text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id)
);
CREATE UNIQUE INDEX tax_rates_place ON tax_rates (organization_id, country, coalesce(state, ''));

CREATE TABLE checkout_links (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  -- the part after __c__ in a cart token
  public_id       text NOT NULL UNIQUE CHECK (public_id ~ '^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$'),
  name            text NOT NULL DEFAULT '',
  discount_code   text,
  active          boolean NOT NULL DEFAULT true,
  expires_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id)
);

CREATE TABLE checkout_link_offers (
  organization_id  bigint NOT NULL,
  checkout_link_id bigint NOT NULL,
  position         integer NOT NULL,
  offer_id         bigint NOT NULL,
  quantity         integer NOT NULL CHECK (quantity BETWEEN 1 AND 99),
  is_gift          boolean NOT NULL DEFAULT false,
  PRIMARY KEY (organization_id, checkout_link_id, position),
  FOREIGN KEY (organization_id, checkout_link_id) REFERENCES checkout_links (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id)
);

CREATE TABLE customers (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  email           text NOT NULL DEFAULT '',
  phone           text NOT NULL DEFAULT '',
  first_name      text NOT NULL DEFAULT '',
  last_name       text NOT NULL DEFAULT '',
  same_address    boolean NOT NULL DEFAULT true,
  email_opt_in    boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id)
);
CREATE INDEX customers_email ON customers (organization_id, lower(email));

CREATE TABLE addresses (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL,
  customer_id     bigint NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('shipping', 'billing')),
  first_name      text NOT NULL DEFAULT '',
  last_name       text NOT NULL DEFAULT '',
  address1        text NOT NULL DEFAULT '',
  address2        text NOT NULL DEFAULT '',
  city            text NOT NULL DEFAULT '',
  state           text NOT NULL DEFAULT '',
  zipcode         text NOT NULL DEFAULT '',
  country         text NOT NULL DEFAULT '',
  phone           text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, customer_id, kind),
  FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE carts (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id     bigint NOT NULL REFERENCES organizations (id),
  token               text NOT NULL UNIQUE CHECK (token ~ '^[A-Za-z0-9]{20,64}$'),
  source              text NOT NULL CHECK (source IN ('merchant', 'link', 'gift_claim', 'demo')),
  customer_id         bigint,
  discount_code_id    bigint,
  shipping_profile_id bigint,
  checkout_link_id    bigint,
  -- for gift-claim carts: the gift being claimed
  gift_claim_id       bigint,
  -- last preview answered with a ship_country: { address fields, totals, computed_at }
  preview             jsonb,
  is_test             boolean NOT NULL DEFAULT false,
  expires_at          timestamptz,
  ordered_at          timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id),
  FOREIGN KEY (organization_id, discount_code_id) REFERENCES discount_codes (organization_id, id),
  FOREIGN KEY (organization_id, shipping_profile_id) REFERENCES shipping_profiles (organization_id, id),
  FOREIGN KEY (organization_id, checkout_link_id) REFERENCES checkout_links (organization_id, id)
);

-- A line of a cart; its id is the order_offer_id the page and the shopper API speak of.
CREATE TABLE cart_offers (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL,
  cart_id         bigint NOT NULL,
  offer_id        bigint NOT NULL,
  position        integer NOT NULL,
  quantity        integer NOT NULL DEFAULT 1 CHECK (quantity BETWEEN 1 AND 99),
  is_gift         boolean NOT NULL DEFAULT false,
  -- gift-claim carts carry the gifted offers at 0: the giver already paid
  price_override  bigint CHECK (price_override >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  UNIQUE (cart_id, position),
  FOREIGN KEY (organization_id, cart_id) REFERENCES carts (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id)
);

-- Recipient details of a gift line, and once its order completes, the single-use claim code.
CREATE TABLE gift_details (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id   bigint NOT NULL,
  cart_offer_id     bigint NOT NULL UNIQUE,
  gift_name         text NOT NULL DEFAULT '',
  gift_email        text NOT NULL DEFAULT '',
  gift_date         date,
  gift_message      text NOT NULL DEFAULT '',
  gift_phone        text NOT NULL DEFAULT '',
  order_offer_notes text NOT NULL DEFAULT '',
  -- long random code (the part after __g__); a bearer secret like a gift card number
  claim_code        text UNIQUE,
  claim_issued_at   timestamptz,
  claimed_at        timestamptz,
  claim_order_id    bigint,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, cart_offer_id) REFERENCES cart_offers (organization_id, id) ON DELETE CASCADE
);

ALTER TABLE carts
  ADD FOREIGN KEY (organization_id, gift_claim_id) REFERENCES gift_details (organization_id, id);

CREATE TABLE orders (
  id                              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id                 bigint NOT NULL,
  -- one order per cart: two racing submissions for a cart cannot both create one
  cart_id                         bigint NOT NULL UNIQUE,
  customer_id                     bigint,
  status                          text NOT NULL CHECK (status IN ('pending', 'declined', 'awaiting_payment', 'complete')),
  is_test                         boolean NOT NULL DEFAULT false,
  currency                        char(3) NOT NULL,
  subtotal                        bigint NOT NULL CHECK (subtotal >= 0),
  total_discount                  bigint NOT NULL DEFAULT 0 CHECK (total_discount >= 0),
  total_offer_shipping            bigint NOT NULL DEFAULT 0 CHECK (total_offer_shipping >= 0),
  total_campaign_shipping         bigint NOT NULL DEFAULT 0 CHECK (total_campaign_shipping >= 0),
  total_tax                       bigint NOT NULL DEFAULT 0 CHECK (total_tax >= 0),
  total_gift_cards                bigint NOT NULL DEFAULT 0 CHECK (total_gift_cards >= 0),
  total                           bigint NOT NULL CHECK (total >= 0),
  discount_code_id                bigint,
  discount_code                   text,
  shipping_profile_id             bigint,
  email                           text NOT NULL,
  phone                           text NOT NULL DEFAULT '',
  same_address                    boolean NOT NULL DEFAULT true,
  -- snapshots as ordered: { first_name, last_name, address1, address2, city, state, zipcode, country, phone }
  shipping_address                jsonb,
  billing_address                 jsonb,
  subscription_terms_accepted     boolean NOT NULL DEFAULT false,
  subscription_terms_accepted_at  timestamptz,
  subscription_terms_ip           text,
  subscription_terms_version      text,
  email_opt_in                    boolean NOT NULL DEFAULT false,
  ip_address                      text,
  created_at                      timestamptz NOT NULL DEFAULT now(),
  updated_at                      timestamptz NOT NULL DEFAULT now(),
  completed_at                    timestamptz,
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, cart_id) REFERENCES carts (organization_id, id),
  FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id),
  FOREIGN KEY (organization_id, discount_code_id) REFERENCES discount_codes (organization_id, id),
  FOREIGN KEY (organization_id, shipping_profile_id) REFERENCES shipping_profiles (organization_id, id)
);
CREATE INDEX orders_listing ON orders (organization_id, id DESC);

ALTER TABLE gift_details
  ADD FOREIGN KEY (organization_id, claim_order_id) REFERENCES orders (organization_id, id);

-- The lines as ordered, priced by the server at the time of the order.
CREATE TABLE order_lines (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id       bigint NOT NULL,
  order_id              bigint NOT NULL,
  cart_offer_id         bigint NOT NULL,
  offer_id              bigint NOT NULL,
  item_name             text NOT NULL,
  quantity              integer NOT NULL CHECK (quantity BETWEEN 1 AND 99),
  unit_price            bigint NOT NULL CHECK (unit_price >= 0),
  subtotal              bigint NOT NULL CHECK (subtotal >= 0),
  discount              bigint NOT NULL DEFAULT 0 CHECK (discount >= 0),
  shipping              bigint NOT NULL DEFAULT 0 CHECK (shipping >= 0),
  tax                   bigint NOT NULL DEFAULT 0 CHECK (tax >= 0),
  total                 bigint NOT NULL CHECK (total >= 0),
  is_gift               boolean NOT NULL DEFAULT false,
  is_recurring          boolean NOT NULL DEFAULT false,
  billing_interval_days integer,
  -- the amount each later cycle of this line charges (items, offer shipping and tax)
  next_cycle_total      bigint,
  UNIQUE (organization_id, id),
  UNIQUE (order_id, cart_offer_id),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, cart_offer_id) REFERENCES cart_offers (organization_id, id),
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id)
);

-- A stored way to charge a customer again (subscriptions): never the card number, only the gateway's token.
CREATE TABLE payment_methods (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id  bigint NOT NULL,
  customer_id      bigint NOT NULL,
  method           text NOT NULL CHECK (method IN ('card', 'paypal')),
  gateway          text NOT NULL,
  gateway_token    text NOT NULL,
  card_brand       text,
  card_type_id     integer,
  card_last4       char(4),
  card_exp_month   integer CHECK (card_exp_month BETWEEN 1 AND 12),
  card_exp_year    integer,
  is_test          boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id)
);

CREATE TABLE payment_attempts (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id   bigint NOT NULL,
  order_id          bigint NOT NULL,
  cart_id           bigint NOT NULL,
  method            text NOT NULL CHECK (method IN ('card', 'paypal', 'none')),
  gateway           text NOT NULL,
  status            text NOT NULL CHECK (status IN ('approved', 'declined', 'error')),
  amount            bigint NOT NULL CHECK (amount >= 0),
  currency          char(3) NOT NULL,
  decline_code      text,
  message           text,
  card_brand        text,
  card_type_id      integer,
  card_last4        char(4),
  card_exp_month    integer,
  card_exp_year     integer,
  gateway_reference text,
  payment_method_id bigint,
  is_test           boolean NOT NULL DEFAULT false,
  ip_address        text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id),
  FOREIGN KEY (organization_id, cart_id) REFERENCES carts (organization_id, id),
  FOREIGN KEY (organization_id, payment_method_id) REFERENCES payment_methods (organization_id, id)
);
CREATE INDEX payment_attempts_order ON payment_attempts (organization_id, order_id);

-- Express (PayPal-style) payments: the payment_token_id the shopper returns with after approving.
CREATE TABLE express_payments (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id    bigint NOT NULL,
  public_id          text NOT NULL UNIQUE,
  cart_id            bigint NOT NULL,
  order_id           bigint,
  provider           text NOT NULL,
  status             text NOT NULL CHECK (status IN ('created', 'approved', 'cancelled', 'used', 'expired')),
  amount             bigint NOT NULL CHECK (amount >= 0),
  currency           char(3) NOT NULL,
  -- { email, fname, lname, ship_* } chosen by the payer at approval
  payer              jsonb,
  provider_reference text,
  is_test            boolean NOT NULL DEFAULT false,
  expires_at         timestamptz NOT NULL,
  approved_at        timestamptz,
  used_at            timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, cart_id) REFERENCES carts (organization_id, id),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id)
);

CREATE TABLE subscriptions (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id   bigint NOT NULL,
  order_id          bigint NOT NULL,
  order_line_id     bigint NOT NULL UNIQUE,
  customer_id       bigint NOT NULL,
  offer_id          bigint NOT NULL,
  payment_method_id bigint,
  status            text NOT NULL CHECK (status IN ('active', 'paused', 'past_due', 'cancelled')),
  quantity          integer NOT NULL CHECK (quantity BETWEEN 1 AND 99),
  -- each later cycle's amount, minor units (items, offer shipping and tax)
  cycle_amount      bigint NOT NULL CHECK (cycle_amount >= 0),
  currency          char(3) NOT NULL,
  interval_days     integer NOT NULL CHECK (interval_days BETWEEN 1 AND 730),
  -- cycle 1 was paid with the order; the next charge is for cycle + 1
  cycle             integer NOT NULL DEFAULT 1,
  next_charge_at    timestamptz NOT NULL,
  -- failed attempts for the upcoming cycle; reset when a charge succeeds
  retry_count       integer NOT NULL DEFAULT 0,
  is_test           boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  paused_at         timestamptz,
  cancelled_at      timestamptz,
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id),
  FOREIGN KEY (organization_id, order_line_id) REFERENCES order_lines (organization_id, id),
  FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id),
  FOREIGN KEY (organization_id, offer_id) REFERENCES offers (organization_id, id),
  FOREIGN KEY (organization_id, payment_method_id) REFERENCES payment_methods (organization_id, id)
);
-- the rebill runner's queue: due subscriptions in charge order
CREATE INDEX subscriptions_due ON subscriptions (next_charge_at) WHERE status IN ('active', 'past_due');

CREATE TABLE subscription_charges (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id   bigint NOT NULL,
  subscription_id   bigint NOT NULL,
  cycle             integer NOT NULL,
  attempt           integer NOT NULL,
  amount            bigint NOT NULL CHECK (amount >= 0),
  status            text NOT NULL CHECK (status IN ('approved', 'declined', 'error')),
  message           text,
  gateway_reference text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (subscription_id, cycle, attempt),
  FOREIGN KEY (organization_id, subscription_id) REFERENCES subscriptions (organization_id, id)
);

-- Idempotency-Key records: a retry with the same key answers the first result (kept at least 24 hours).
CREATE TABLE idempotency_keys (
  organization_id bigint NOT NULL REFERENCES organizations (id),
  scope           text NOT NULL,
  key             text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash    text NOT NULL,
  status          text NOT NULL CHECK (status IN ('in_progress', 'done')),
  response_status integer,
  response_body   jsonb,
  locked_until    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (organization_id, scope, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

-- Sliding-window rate-limit events (authorize, order attempts, failed payments). Keys name their own scope
-- (an IP, a cart); organization_id is set where the event belongs to one.
CREATE TABLE rate_limit_events (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint,
  bucket          text NOT NULL,
  occurred_at     timestamptz NOT NULL
);
CREATE INDEX rate_limit_events_bucket ON rate_limit_events (bucket, occurred_at);
