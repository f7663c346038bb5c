-- Every email the checkout sends, as sent (docs/emails.md): the merchant API reads them back.
CREATE TABLE emails (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id bigint NOT NULL REFERENCES organizations (id),
  kind            text NOT NULL CHECK (length(kind) BETWEEN 1 AND 100),
  -- the job that sends it: its retry finds the row its first attempt wrote and never sends a sent email again
  job_key         text UNIQUE,
  order_id        bigint,
  to_address      text NOT NULL,
  from_address    text NOT NULL,
  subject         text NOT NULL,
  body_html       text NOT NULL,
  body_text       text NOT NULL,
  -- queued: written, not sent yet; sent: the SMTP server took it; kept: written to a local file (no SMTP_URL);
  -- failed: its last attempt failed (error says why), and its job retries it until it gives up
  status          text NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'kept')),
  error           text,
  message_id      text,
  created_at      timestamptz NOT NULL,
  sent_at         timestamptz,
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, order_id) REFERENCES orders (organization_id, id)
);

CREATE INDEX emails_by_organization ON emails (organization_id, id);
CREATE INDEX emails_by_order ON emails (organization_id, order_id, id) WHERE order_id IS NOT NULL;
