import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { storeWithShopper } from '../helpers/store.js';
import {
  advanceTo,
  mailFrom,
  namedStore,
  nextChargeAt,
  subscribe,
  workerFor,
} from '../helpers/subscription-emails.js';
import { createTestApp, merchantClient, type TestApp } from '../helpers/test-app.js';

// Emails speak the language of the cart their order came from (docs/emails.md, "Languages"), through a real SMTP
// server, on the real app and database.

let inbox: SmtpInbox;
let t: TestApp;
let jobs: ReturnType<typeof workerFor>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({ config: { smtpUrl: inbox.url, mailFrom: 'orders@shop.example' } });
  jobs = workerFor(t);
});

afterAll(async () => {
  jobs?.mailer.close();
  await Promise.all([t?.close(), inbox?.close()]);
});

/** What the page keeps when the shopper picks a language (carts.language). */
async function chooseLanguage(where: { token: string } | { orderId: number }, language: string | null) {
  if ('token' in where)
    await t.db.query('UPDATE carts SET language = $2 WHERE token = $1', [where.token, language]);
  else
    await t.db.query('UPDATE carts SET language = $2 WHERE id = (SELECT cart_id FROM orders WHERE id = $1)', [
      where.orderId,
      language,
    ]);
}

/** A card order in a store named `name` from a cart whose shopper chose `language`. */
async function orderIn(name: string, language: string | null) {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const api = merchantClient(t.app, store.org.apiKey);
  expect((await api.patch('/organization', { name })).status).toBe(200);
  const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 2 }]);
  await chooseLanguage({ token }, language);
  const placed = await shopper.post('orders', orderBody(token, { payment: card(CARDS.visa) }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return placed.body.order.order_id as number;
}

describe('the receipt in the shopper’s language', () => {
  it('sends a Japanese receipt for a cart in Japanese', async () => {
    const name = 'Kissa Mame';
    const orderId = await orderIn(name, 'ja');
    await jobs.worker.drain();
    const [mail, ...more] = mailFrom(inbox, name);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`${name} のご注文（注文番号 ${orderId}）`);
    expect(mail!.text).toContain(`ご注文（注文番号 ${orderId}）ありがとうございます。`);
    expect(mail!.text).toContain('小計：$36.00');
    expect(mail!.text).toContain('末尾 1111 の Visa でお支払い済みです。');
    expect(mail!.text).not.toContain('Thank you');
    expect(mail!.html).toContain('<html lang="ja" dir="ltr">');
    expect(mail!.html).toContain('合計');
  });

  it('writes a Japanese address as Japan does, its prefecture by its name and not its code', async () => {
    const name = 'Tokyo Beans';
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    expect((await merchantClient(t.app, store.org.apiKey).patch('/organization', { name })).status).toBe(200);
    await store.create('/shipping-profiles', { name: 'Japan', countries: ['JP'], price: 10 });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await chooseLanguage({ token }, 'ja');
    const tokyo = {
      ship_fname: '花子',
      ship_lname: '山田',
      ship_address1: '千代田区千代田1-1',
      ship_address2: '',
      ship_city: '',
      ship_state: '13',
      ship_zipcode: '100-0001',
      ship_country: 'JP',
    };
    const placed = await shopper.post('orders', orderBody(token, { ...tokyo, payment: card(CARDS.visa) }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    await jobs.worker.drain();
    const [mail] = mailFrom(inbox, name);
    expect(mail!.text).toContain(
      ['〒100-0001', '東京都', '千代田区千代田1-1', '花子 山田', '日本'].join('\n'),
    );
    expect(mail!.html).toContain('〒100-0001<br/>東京都<br/>千代田区千代田1-1<br/>花子 山田<br/>日本');
    expect(mail!.text).not.toMatch(/^13$/m);
  });

  it('sends an Arabic receipt right to left', async () => {
    const name = 'Bayt al-Qahwa';
    const orderId = await orderIn(name, 'ar');
    await jobs.worker.drain();
    const [mail] = mailFrom(inbox, name);
    expect(mail!.subject).toBe(`طلبك رقم ${orderId} لدى ${name}`);
    expect(mail!.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail!.text).toContain('المجموع الفرعي');
  });

  it('sends English when the shopper chose no language (the store’s default)', async () => {
    const name = 'Plain Roasters';
    const orderId = await orderIn(name, null);
    await jobs.worker.drain();
    const [mail] = mailFrom(inbox, name);
    expect(mail!.subject).toBe(`Your ${name} order #${orderId}`);
    expect(mail!.html).toContain('<html lang="en" dir="ltr">');
  });
});

describe('the subscription emails in the subscriber’s language', () => {
  it('sends the welcome and a renewal in Spanish for an order from a cart in Spanish', async () => {
    const name = 'Tostadores Sol';
    const store = await namedStore(t, name);
    const { id, orderId } = await subscribe(t, store);
    // Chosen before the emails' jobs ran: they read the cart's language when they write the email.
    await chooseLanguage({ orderId }, 'es');
    await jobs.worker.drain();
    advanceTo(t, await nextChargeAt(store, id));
    await runRebills({
      db: t.db,
      gateways: createPaymentGateways(t.config, { db: t.db, clock: t.clock }),
      clock: t.clock,
    });
    await jobs.worker.drain();

    expect(mailFrom(inbox, name, new RegExp(`^Tu suscripción a Coffee club en ${name}$`))).toHaveLength(1);
    const renewals = mailFrom(inbox, name, /^Recibo de la renovación de Coffee club/);
    expect(renewals).toHaveLength(1);
    const mail = renewals[0]!;
    const next = await nextChargeAt(store, id);
    const date = new Intl.DateTimeFormat('es', { dateStyle: 'long', timeZone: 'UTC' }).format(next);
    for (const body of [mail.text!, mail.html as string]) {
      expect(body).toContain('Tu suscripción a Coffee club se ha renovado: ciclo 2.');
      expect(body).toMatch(/Cobrado: 27,06\sUS\$\. Pagado con Visa terminada en 1111\./);
      expect(body).toContain(`Tu próximo cargo será el ${date}.`);
    }
    expect(mail.html).toContain('<html lang="es" dir="ltr">');
    expect(mail.text).toContain('Gestionar mi suscripción:');
  });
});
