import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Which language a store's page speaks, and the shopper's choice kept with the cart (docs/languages.md).

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const configOf = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="checkout-config">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}',
  ) as {
    language?: string;
    languages?: string[];
    money_format?: { locale: string } | null;
  };

async function page(token: string, options: { lang?: string; acceptLanguage?: string } = {}) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/checkout/${token}${options.lang ? `?lang=${encodeURIComponent(options.lang)}` : ''}`,
    headers: options.acceptLanguage ? { 'accept-language': options.acceptLanguage } : {},
  });
  return { status: response.statusCode, html: response.body, config: configOf(response.body) };
}

describe('a store’s languages', () => {
  it('are every language by default, English first, and change through the merchant API', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const read = await store.api.get('/organization');
    expect(read.body.languages).toEqual({
      default: 'en',
      enabled: ['en', 'es', 'fr', 'de', 'it', 'pt-BR', 'nl', 'ja', 'ar'],
    });
    const changed = await store.api.patch('/organization', {
      languages: { default: 'es', enabled: ['es', 'ja'] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.languages).toEqual({ default: 'es', enabled: ['es', 'ja'] });
    expect((await store.api.get('/organization')).body.languages.default).toBe('es');
  });

  it('refuses a default the store does not speak, or a language we have no catalogue for, and keeps what it had', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const notEnabled = await store.api.patch('/organization', {
      languages: { default: 'fr', enabled: ['en'] },
    });
    expect(notEnabled.status).toBe(422);
    expect(notEnabled.body.fields.languages).toMatch(/add "fr" to enabled/);
    const unknown = await store.api.patch('/organization', {
      languages: { default: 'en', enabled: ['en', 'sv'] },
    });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body.fields)).toMatch(/languages/);
    expect((await store.api.get('/organization')).body.languages.enabled).toHaveLength(9);
  });
});

describe('the page’s language', () => {
  it('follows ?lang=, then the browser’s languages the store speaks, then the store’s default', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    await store.api.patch('/organization', { languages: { default: 'de', enabled: ['de', 'es', 'ar'] } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);

    const asked = await page(token, { lang: 'ar', acceptLanguage: 'es' });
    expect(asked.status).toBe(200);
    expect(asked.config.language).toBe('ar');
    expect(asked.html).toContain('<html lang="ar" dir="rtl">');
    expect(asked.config.languages).toEqual(['de', 'es', 'ar']);
    expect(asked.config.money_format?.locale).toBe('ar');
    expect((await page(token, { lang: 'de' })).config.money_format).toMatchObject({
      locale: 'de',
      group: '.',
    });

    expect((await page(token, { acceptLanguage: 'fr-CA,es-MX;q=0.9,en;q=0.8' })).config.language).toBe('es');
    // Not enabled: French and ?lang=ja are passed over.
    const fallback = await page(token, { lang: 'ja', acceptLanguage: 'fr' });
    expect(fallback.config.language).toBe('de');
    expect(fallback.html).toContain('<html lang="de" dir="ltr">');
  });

  it('is the one the shopper chose, kept with the cart over the browser’s', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.get(`carts/${token}`);
    const chosen = await shopper.put(`carts/${token}/language`, { language: 'ja' });
    expect(chosen.status).toBe(200);
    expect(chosen.body.cart_token).toBe(token);
    const { rows } = await t.db.query<{ language: string }>('SELECT language FROM carts WHERE token = $1', [
      token,
    ]);
    expect(rows[0]?.language).toBe('ja');
    expect((await page(token, { acceptLanguage: 'es' })).config.language).toBe('ja');
    expect((await page(token, { lang: 'fr', acceptLanguage: 'es' })).config.language).toBe('fr');
  });

  it('refuses a language the store has not enabled, with the ones it has', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    await store.api.patch('/organization', { languages: { default: 'en', enabled: ['en', 'es'] } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.get(`carts/${token}`);
    const refused = await shopper.put(`carts/${token}/language`, { language: 'ja' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('language_not_offered');
    expect(refused.body.message).toBe(
      'This store does not offer its checkout in that language. Choose one of: English and Spanish.',
    );
    expect(refused.body.fields.language).toBe('Choose one of the languages this store offers.');
    const unknown = await shopper.put(`carts/${token}/language`, { language: 'klingon' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields.language).toBe(
      'language must be one of en, es, fr, de, it, pt-BR, nl, ja, or ar.',
    );
    const { rows } = await t.db.query<{ language: string | null }>(
      'SELECT language FROM carts WHERE token = $1',
      [token],
    );
    expect(rows[0]?.language).toBeNull();
  });

  it('refuses a language not offered in the language of the request, naming the offered ones in it', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    await store.api.patch('/organization', { languages: { default: 'en', enabled: ['en', 'es', 'de'] } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.get(`carts/${token}`);
    const refused = await shopper.put(
      `carts/${token}/language`,
      { language: 'ja' },
      { 'accept-language': 'fr' },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('language_not_offered');
    expect(refused.body.message).toBe(
      'Cette boutique ne propose pas son paiement dans cette langue. Choisissez parmi : anglais, espagnol et allemand.',
    );
    expect(refused.body.fields.language).toBe('Choisissez l’une des langues proposées par cette boutique.');
  });

  it('speaks the browser’s language on a link that opens nothing', async () => {
    const missing = await page('cart_does_not_exist', { acceptLanguage: 'nl' });
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('<html lang="nl" dir="ltr">');
  });
});
