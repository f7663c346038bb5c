-- The merchant's offer text in other languages (docs/api.md, "Translations"): { "es": { "offer_name": … }, … }; a
-- language or field left out reads the offer's own columns.
ALTER TABLE offers ADD COLUMN translations jsonb NOT NULL DEFAULT '{}';
