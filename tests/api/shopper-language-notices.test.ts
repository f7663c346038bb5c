import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CARDS, orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// A shopper reads a decline and a cart's notices in the page's language (Accept-Language), with the same code
// (docs/languages.md, "Refusals and field errors").

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = (options: Parameters<typeof storeWithShopper>[2] = {}) =>
  storeWithShopper(t.app, t.db, options);

const es = { 'accept-language': 'es' };
const ja = { 'accept-language': 'ja' };

describe('a declined card', () => {
  it('reads Spanish to a Spanish page, with the same code', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), es);
    expect(declined.status).toBe(402);
    expect(declined.body).toEqual({
      status: 402,
      code: 'card_declined',
      message: 'Tu tarjeta fue rechazada. Prueba con otra tarjeta o con PayPal.',
    });
  });

  it('reads Japanese to a Japanese page when funds are insufficient', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post(
      'orders',
      orderBody(token, { payment: card(CARDS.insufficientFunds) }),
      ja,
    );
    expect(response.body).toEqual({
      status: 402,
      code: 'insufficient_funds',
      message: 'カードの残高が不足しています。別のカードまたはPayPalをお試しください。',
    });
  });

  it('keeps the English answer, and the processor’s words in the merchant’s records', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
      'accept-language': 'es',
    });
    expect(response.body.code).toBe('card_declined');
    const english = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
      'accept-language': 'en-US',
    });
    expect(english.body.message).toBe('Your card was declined. Try another card or PayPal.');
    const { rows } = await t.db.query<{ decline_code: string; message: string }>(
      `SELECT decline_code, message FROM payment_attempts WHERE organization_id = $1 ORDER BY id`,
      [store.org.id],
    );
    expect(rows.map((row) => row.message)).toEqual([
      'Your card was declined. Try another card or PayPal.',
      'Your card was declined. Try another card or PayPal.',
    ]);
  });

  it('says a gateway error in the page’s language', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const failed = await shopper.post('orders', orderBody(token, { payment: card(CARDS.gatewayError) }), es);
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({
      status: 503,
      code: 'payment_unavailable',
      message: 'El servicio de pago no respondió. No se ha cobrado nada; vuelve a intentarlo.',
    });
  });
});

describe('a card payment’s field message', () => {
  it('asks for the card in the page’s language', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const missing = await shopper.post('orders', orderBody(token, { payment: { method: 'card' } }), ja);
    expect(missing.status).toBe(422);
    expect(missing.body.fields['payment.card_token']).toBe('カード情報を入力してください。');
  });
});

describe('a cart’s notices', () => {
  it('say that nothing ships to the country in the page’s language, naming it so', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const spanish = await shopper.get(`carts/${token}/preview`, { ship_country: 'JP' }, es);
    expect(spanish.body.notice).toEqual({
      code: 'shipping_unavailable',
      message: 'No hacemos envíos a Japón. Elige otra dirección de envío.',
    });
    const japanese = await shopper.get(`carts/${token}/preview`, { ship_country: 'JP' }, ja);
    expect(japanese.body.notice).toEqual({
      code: 'shipping_unavailable',
      message: '日本への配送は行っておりません。別の配送先住所を選択してください。',
    });
    const english = await shopper.get(`carts/${token}/preview`, { ship_country: 'JP' });
    expect(english.body.notice.message).toBe("We don't ship to Japan. Choose another shipping address.");
  });

  it('say a changed shipping option in the page’s language', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const wrong = await shopper.get(
      `carts/${token}/preview`,
      { ship_country: 'CA', shipping_profile_id: String(store.profiles.express.id) },
      es,
    );
    expect(wrong.body.notice).toEqual({
      code: 'shipping_profile_changed',
      message: 'Esa opción de envío no está disponible para Canadá; hemos elegido International.',
    });
  });

  it('refuse an order to an unshipped country in the page’s language', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const nowhere = await shopper.post(
      'orders',
      orderBody(token, { ship_country: 'JP', ship_state: '13', ship_zipcode: '100-0001' }),
      es,
    );
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.fields.ship_country).toBe(
      'No hacemos envíos a Japón. Elige otra dirección de envío.',
    );
  });

  it('say why a kept code takes nothing off in the page’s language', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 2 }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'SAVE5' });
    const lineId = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    await shopper.put(`carts/${token}/quantity`, { id: lineId, quantity: 1 });
    const english = (await shopper.get(`carts/${token}`)).body.discount_notice;
    const spanish = (await shopper.get(`carts/${token}`, undefined, es)).body.discount_notice;
    expect(spanish.code).toBe(english.code);
    expect(spanish.code).toBe('discount_code_minimum_not_met');
    expect(spanish.message).toContain('SAVE5');
    expect(spanish.message).not.toBe(english.message);
  });
});
