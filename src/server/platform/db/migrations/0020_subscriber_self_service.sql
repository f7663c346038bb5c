-- The subscriber's self-service page (docs/subscriptions.md, "Self-service"). A cancel made for the end of the paid
-- period is kept as the date it takes effect: the rebill run never charges the subscription again and marks it
-- cancelled at that date. changed_by says who made the last pause, resume, skip or cancel, for the merchant API and
-- webhooks.
ALTER TABLE subscriptions ADD COLUMN cancel_at timestamptz;
ALTER TABLE subscriptions ADD COLUMN changed_by text CHECK (changed_by IN ('merchant', 'subscriber'));
CREATE INDEX subscriptions_cancel_due ON subscriptions (cancel_at) WHERE cancel_at IS NOT NULL AND status <> 'cancelled';
