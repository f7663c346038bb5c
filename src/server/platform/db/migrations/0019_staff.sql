-- The store's staff and their dashboard sessions (docs/dashboard.md): members with a role, one-time links that set a
-- password, sessions kept by the hash of their cookie, failed sign-ins counted for the limit, and what staff changed.
CREATE TABLE staff_members (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  email           text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name            text NOT NULL DEFAULT '',
  role            text NOT NULL CHECK (role IN ('owner', 'staff')),
  -- scrypt (docs/architecture.md, "Staff passwords"); null until the member sets one through their link
  password_hash   text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  removed_at      timestamptz
);
CREATE UNIQUE INDEX staff_members_email ON staff_members (organization_id, lower(email)) WHERE removed_at IS NULL;

CREATE TABLE staff_links (
  -- sha256 of the link's secret: the link itself is shown or emailed once and never stored
  token_hash      text PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  -- null for the first owner's link: the owner is made when it is used
  staff_member_id bigint REFERENCES staff_members (id),
  purpose         text NOT NULL CHECK (purpose IN ('owner_setup', 'invite')),
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX staff_links_member ON staff_links (organization_id, staff_member_id);

CREATE TABLE staff_sessions (
  -- sha256 of the cookie's value
  token_hash      text PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  staff_member_id bigint NOT NULL REFERENCES staff_members (id),
  -- sent back in X-CSRF-Token by every change the dashboard makes
  csrf_token      text NOT NULL,
  created_at      timestamptz NOT NULL,
  last_seen_at    timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL
);
CREATE INDEX staff_sessions_member ON staff_sessions (staff_member_id);

CREATE TABLE staff_sign_in_failures (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email           text NOT NULL,
  ip              text,
  at              timestamptz NOT NULL
);
CREATE INDEX staff_sign_in_failures_email ON staff_sign_in_failures (email, at);
CREATE INDEX staff_sign_in_failures_ip ON staff_sign_in_failures (ip, at);

CREATE TABLE audit_events (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  staff_member_id bigint NOT NULL REFERENCES staff_members (id),
  -- the route's method and pattern (POST /checkout/api/merchant/orders/:id/refunds) and what it answered
  action          text NOT NULL,
  status_code     integer NOT NULL,
  object_type     text,
  object_id       text,
  created_at      timestamptz NOT NULL
);
CREATE INDEX audit_events_object ON audit_events (organization_id, object_type, object_id, id);
CREATE INDEX audit_events_organization ON audit_events (organization_id, id);
