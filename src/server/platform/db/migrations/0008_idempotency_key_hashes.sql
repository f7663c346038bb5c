-- An Idempotency-Key is kept only as a keyed hash (docs/security.md, "What is stored"): a client may put anything in
-- the header, a card number too, and the key is what lets a retry read the first answer. The hash needs the server's
-- secret, which SQL does not have, so the keys kept so far (a day's at most) are dropped: a retry with one of them
-- runs again, and the order's own state keeps that safe (a placed order answers 409 order_complete; nothing is
-- charged twice; docs/api.md, "Orders").
DELETE FROM idempotency_keys;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys DROP COLUMN key;
-- HMAC-SHA-256 of the organization and the key, hex (src/server/services/idempotency.ts, hashIdempotencyKey)
ALTER TABLE idempotency_keys ADD COLUMN key_hash text NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$');
ALTER TABLE idempotency_keys ADD PRIMARY KEY (organization_id, scope, key_hash);
