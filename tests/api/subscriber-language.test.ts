import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriberSubscriptionSchema } from '../../src/contract/subscriber.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession, tokenizeCard } from '../helpers/shopper.js';
import { TEST_CARDS } from '../../src/server/platform/payments/test-gateway.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, injectJson, type TestApp } from '../helpers/test-app.js';

// The subscriber's page speaks the language of the cart its subscription came from, and the subscriber API says its
// refusals in the language the page asks for (docs/subscriptions.md, "Self-service"; docs/languages.md).

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

/** A subscription from a cart whose shopper chose `language` (carts.language), and its page's API calls. */
async function subscriberIn(store: Store, language: string | null) {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: store.offers.club.id }]);
  await t.db.query('UPDATE carts SET language = $2 WHERE token = $1', [token, language]);
  const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const id = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body
    .subscription_ids[0] as number;
  const link = await store.api.post(`/subscriptions/${id}/manage-link`, {});
  const headers = (accept?: string) => ({
    authorization: `Bearer ${new URL(link.body.url).pathname.split('/').pop()}`,
    ...(accept ? { 'accept-language': accept } : {}),
  });
  const base = '/checkout/api/subscriber/subscription';
  return {
    page: (query = '', accept?: string) =>
      t.app.inject({
        method: 'GET',
        url: `${new URL(link.body.url).pathname}${query}`,
        headers: accept ? { 'accept-language': accept } : {},
      }),
    read: (accept?: string) => injectJson(t.app, { method: 'GET', url: base, headers: headers(accept) }),
    act: (action: string, accept?: string, payload: object = {}) =>
      injectJson(t.app, { method: 'POST', url: `${base}/${action}`, headers: headers(accept), payload }),
  };
}

describe('the subscriber page’s language', () => {
  it('is the language of the cart the subscription came from, else the store’s default', async () => {
    const store = await createStore(t.app, t.db);
    const german = await subscriberIn(store, 'de');
    const read = await german.read();
    expect(read.status).toBe(200);
    expect(SubscriberSubscriptionSchema.parse(read.body).language).toBe('de');
    expect((await (await subscriberIn(store, null)).read()).body.language).toBe('en');
  });

  it('says a refusal in the language the page asks for, with the same status and code', async () => {
    const store = await createStore(t.app, t.db);
    const client = await subscriberIn(store, 'de');
    // The store's default cancel waits for the paid period's end: a pause is then refused.
    expect((await client.act('cancel', 'de')).status).toBe(200);
    const again = await client.act('pause', 'de');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'subscription_cancel_scheduled' });
    expect(again.body.message).toBe(
      'Dieses Abonnement endet mit Ablauf seines Zeitraums: Setzen Sie es zuerst fort, um es zu ändern.',
    );
    // Japanese, asked as a browser would ask; English keeps the server's own words.
    expect((await client.act('pause', 'ja-JP,ja;q=0.9')).body.message).toBe(
      'この定期購入は期間の終わりに終了します。変更するには、まず再開してください。',
    );
    expect((await client.act('pause', 'en')).body.message).toBe(
      'This subscription ends at the end of its period: resume it first to keep it, then pause it.',
    );
  });

  it('says a declined new card in the page’s language, with the decline’s code', async () => {
    const store = await createStore(t.app, t.db);
    const client = await subscriberIn(store, 'es');
    const declinedCard = async () =>
      tokenizeCard(t.app, {
        number: TEST_CARDS.insufficientFunds,
        cvv: '123',
        exp_month: 12,
        exp_year: 2030,
        test_cards: [],
      });
    const spanish = await client.act('card', 'es', { card_token: await declinedCard() });
    expect(spanish.body).toEqual({
      status: 402,
      code: 'insufficient_funds',
      message: 'Tu tarjeta no tiene fondos suficientes. Prueba con otra tarjeta o con PayPal.',
    });
    const english = await client.act('card', 'en', { card_token: await declinedCard() });
    expect(english.body.message).toBe('Your card has insufficient funds. Try another card or PayPal.');
  });

  it('says a refused link in the page’s language', async () => {
    const refused = await injectJson(t.app, {
      method: 'GET',
      url: '/checkout/api/subscriber/subscription',
      headers: { authorization: 'Bearer not-a-token', 'accept-language': 'es' },
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      code: 'subscriber_link_invalid',
      message: 'Este enlace no es válido. Pide a la tienda un enlace nuevo para gestionar tu suscripción.',
    });
  });
});

describe('the subscriber page as the server writes it', () => {
  it("is in its subscription's language before its script runs: <html lang dir> and its words", async () => {
    const store = await createStore(t.app, t.db);
    const arabic = await subscriberIn(store, 'ar');
    const page = await arabic.page('', 'es');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="ar" dir="rtl">');
    expect(page.body).toContain('<title data-t="manage.title">اشتراكك</title>');
    expect(page.body).toContain('<p data-t="manage.notBuilt">لم يتم بناء الصفحة. شغّل npm run build.</p>');
    expect(page.body).not.toContain('Your subscription');
    // ?lang= wins, as on the page itself.
    expect((await arabic.page('?lang=ja')).body).toContain('<html lang="ja" dir="ltr">');
  });

  it("is in the browser's language when the link is not good", async () => {
    const refused = await t.app.inject({
      method: 'GET',
      url: '/checkout/manage/not-a-token',
      headers: { 'accept-language': 'es-MX,es;q=0.9' },
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('<html lang="es" dir="ltr">');
    expect(refused.body).toContain('<title data-t="manage.title">Tu suscripción</title>');
  });
});
