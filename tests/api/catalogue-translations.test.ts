import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The merchant's catalogue text per language, shown in the cart's and the page's language (docs/api.md,
// "Translations").

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
  ) as { subscription_terms?: { text: string; version: string }; legal?: Record<string, string> };

describe('an offer’s translations', () => {
  it('show in the cart’s language and fall back to the store’s text per field', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const created = await store.api.post('/offers', {
      offer_name: 'Coffee beans',
      item_name: 'Bag of beans',
      price: 12,
      translations: {
        es: { offer_name: 'Granos de café', item_name: 'Bolsa de granos' },
        ja: { offer_name: 'コーヒー豆' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.translations.ja).toEqual({ offer_name: 'コーヒー豆' });
    const token = await store.cart([{ offer_id: created.body.id }]);
    await shopper.get(`carts/${token}`);

    const ja = await shopper.put(`carts/${token}/language`, { language: 'ja' });
    expect(ja.body.offers[0]).toMatchObject({ offer_name: 'コーヒー豆', item_name: 'Bag of beans' });
    const es = await shopper.put(`carts/${token}/language`, { language: 'es' });
    expect(es.body.offers[0]).toMatchObject({ offer_name: 'Granos de café', item_name: 'Bolsa de granos' });
    const fr = await shopper.put(`carts/${token}/language`, { language: 'fr' });
    expect(fr.body.offers[0]).toMatchObject({ offer_name: 'Coffee beans', item_name: 'Bag of beans' });
  });

  it('refuses a language the checkout does not speak, or a field too long, naming what to fix', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const unknown = await store.api.post('/offers', {
      offer_name: 'Tea',
      item_name: 'Tin',
      price: 5,
      translations: { sv: { offer_name: 'Te' } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields['translations.sv']).toBe(
      'sv is not a language the checkout speaks: key translations by one of en, es, fr, de, it, pt-BR, nl, ja, ar.',
    );
    const long = await store.api.post('/offers', {
      offer_name: 'Tea',
      item_name: 'Tin',
      price: 5,
      translations: { es: { offer_name: 'x'.repeat(201) } },
    });
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.fields)).toContain('translations.es.offer_name');
  });
});

describe('an offer’s options per language', () => {
  it('show translated on a Spanish cart’s lines, part by part, and as the store wrote them in another language', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const created = await store.api.post('/offers', {
      offer_name: 'Coffee beans',
      item_name: 'Bag of beans',
      price: 12,
      item_options: [
        { name: 'Size', value: '340 g' },
        { name: 'Roast', value: 'Dark' },
      ],
      translations: { es: { item_options: [{ name: 'Tamaño' }, { name: 'Tueste', value: 'Oscuro' }] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.translations.es.item_options).toEqual([
      { name: 'Tamaño' },
      { name: 'Tueste', value: 'Oscuro' },
    ]);
    const token = await store.cart([{ offer_id: created.body.id }]);
    await shopper.get(`carts/${token}`);

    const es = await shopper.put(`carts/${token}/language`, { language: 'es' });
    expect(es.body.offers[0].order_offer_item_options).toEqual([
      { name: 'Tamaño', value: '340 g' },
      { name: 'Tueste', value: 'Oscuro' },
    ]);
    expect(es.body.offers[0].items_option_variation_name).toBe('340 g / Oscuro');
    const de = await shopper.put(`carts/${token}/language`, { language: 'de' });
    expect(de.body.offers[0].order_offer_item_options).toEqual([
      { name: 'Size', value: '340 g' },
      { name: 'Roast', value: 'Dark' },
    ]);
  });

  it('refuses a translated list of another length than the options, saying what to send', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const refused = await store.api.post('/offers', {
      offer_name: 'Tea',
      item_name: 'Tin',
      price: 5,
      item_options: [
        { name: 'Size', value: '100 g' },
        { name: 'Leaf', value: 'Green' },
      ],
      translations: { es: { item_options: [{ name: 'Tamaño' }] } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.fields['translations.es.item_options']).toBe(
      'translations.es.item_options has 1 option but item_options has 2 options: give one translation per ' +
        'option, in the same order (leave a name or value empty to show the original), or leave item_options ' +
        'out of translations.es.',
    );

    const created = await store.api.post('/offers', {
      offer_name: 'Tea',
      item_name: 'Tin',
      price: 5,
      item_options: [{ name: 'Size', value: '100 g' }],
      translations: { es: { item_options: [{ name: 'Tamaño' }] } },
    });
    expect(created.status).toBe(201);
    // Options changed later must not leave the translations pairing the wrong texts.
    const patched = await store.api.patch(`/offers/${created.body.id}`, {
      item_options: [
        { name: 'Leaf', value: 'Green' },
        { name: 'Size', value: '100 g' },
      ],
    });
    expect(patched.status).toBe(422);
    expect(Object.keys(patched.body.fields)).toEqual(['translations.es.item_options']);
  });
});

describe('the subscription terms and legal links per language', () => {
  it('show in the page’s language, and the merchant API returns them', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const patched = await store.api.patch('/organization', {
      subscription_terms: {
        text: 'I agree to be charged until I cancel.',
        version: 'v7',
        translations: { es: { text: 'Acepto que se me cobre hasta que cancele.' } },
      },
      legal: {
        terms_url: 'https://shop.example/terms',
        translations: { es: { terms_url: 'https://shop.example/es/terminos' } },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.subscription_terms.translations.es.text).toMatch(/^Acepto/);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const page = async (lang: string) =>
      configOf((await t.app.inject({ method: 'GET', url: `/checkout/${token}?lang=${lang}` })).body);
    const es = await page('es');
    expect(es.subscription_terms).toEqual({
      text: 'Acepto que se me cobre hasta que cancele.',
      version: 'v7',
    });
    expect(es.legal).toEqual({ terms_url: 'https://shop.example/es/terminos' });
    const de = await page('de');
    expect(de.subscription_terms?.text).toBe('I agree to be charged until I cancel.');
    expect(de.legal).toEqual({ terms_url: 'https://shop.example/terms' });
  });

  it('refuses terms keyed by an unknown language', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const refused = await store.api.patch('/organization', {
      subscription_terms: { text: 'Terms', version: 'v1', translations: { klingon: { text: 'x' } } },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body.fields)).toMatch(/klingon is not a language the checkout speaks/);
  });
});
