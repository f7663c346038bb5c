-- Languages (docs/languages.md): the language a cart's shopper chose (the page's switcher or ?lang=), kept with the
-- cart so a reload, the emails of its order and its subscriptions speak it; null until they choose, when the page
-- follows the browser and the store's default. The store's languages are in its settings.
ALTER TABLE carts ADD COLUMN language text CHECK (language IN ('en', 'es', 'fr', 'de', 'it', 'pt-BR', 'nl', 'ja', 'ar'));
