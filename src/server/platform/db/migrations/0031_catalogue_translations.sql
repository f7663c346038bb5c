-- The merchant's catalogue text in other languages (docs/api.md, "Translations"). An offer's translations are
-- { "es": { "offer_name": … }, … }; a language or field left out reads the offer's own columns. The subscription
-- terms and legal links keep theirs in the organization's settings.
ALTER TABLE offers ADD COLUMN translations jsonb NOT NULL DEFAULT '{}';

-- The consent names the language of the terms' text the shopper agreed to, with its version.
ALTER TABLE orders ADD COLUMN subscription_terms_language text;
