-- Webhooks to the merchant's systems (docs/webhooks.md): endpoints, one delivery per event and endpoint, and each
-- attempt of a delivery with the receiver's answer.
CREATE TABLE webhook_endpoints (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  url             text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  events          jsonb NOT NULL,
  description     text NOT NULL DEFAULT '',
  -- whsec_…: signs every delivery (Standard Webhooks); shown once, when the endpoint is made
  secret          text NOT NULL,
  active          boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_organization ON webhook_endpoints (organization_id, id);

CREATE TABLE webhook_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  endpoint_id     bigint NOT NULL REFERENCES webhook_endpoints (id),
  -- the webhook-id header: the same on every attempt and on a resend
  message_id      text NOT NULL UNIQUE,
  event_type      text NOT NULL,
  -- the event and its object (order.completed:42): one delivery per endpoint, however often the event is emitted
  event_key       text NOT NULL,
  payload         jsonb NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  -- resends so far: each is a job of its own key
  resends         integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (organization_id, endpoint_id, id);
CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (endpoint_id, event_key);

CREATE TABLE webhook_attempts (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  delivery_id     bigint NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at    timestamptz NOT NULL,
  status_code     integer,
  response        text NOT NULL DEFAULT '',
  duration_ms     integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (organization_id, delivery_id, id);
