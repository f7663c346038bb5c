// The abandoned-checkout reminder (docs/emails.md, "Abandoned checkout"): one email, after the store's wait, to a
// shopper who gave an email and agreed to emails but did not place the order, with a link that reopens their cart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailListSchema } from '../../src/contract/email.js';
import { createEmailJobs } from '../../src/server/modules/emails/email-jobs.js';
import { abandonedCheckoutKey } from '../../src/server/modules/emails/abandoned-checkout-enqueue.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import { createTestApp, subscriberLinksOf, TEST_PUBLIC_URL, type TestApp } from '../helpers/test-app.js';

const MINUTE = 60_000;
let t: TestApp;
let inbox: SmtpInbox;
let emailJobs: ReturnType<typeof createEmailJobs>;
let worker: ReturnType<typeof createJobWorker>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({ config: { smtpUrl: inbox.url, mailFrom: 'shop@shop.example' } });
  emailJobs = createEmailJobs(t.config, subscriberLinksOf(t));
  worker = createJobWorker(t.db, emailJobs.handlers, {
    clock: t.clock,
    logger: createLogger({ level: 'silent' }),
  });
});

afterAll(async () => {
  emailJobs?.mailer.close();
  await t?.close();
  await inbox?.close();
});

let keyCounter = 0;
const key = () => `abandoned-${process.pid}-${++keyCounter}`;

/** A store with reminders on (after `afterMinutes`), named and with a logo. */
async function remindingStore(name: string, afterMinutes = 60) {
  const { store } = await storeWithShopper(t.app, t.db);
  const changed = await store.api.patch('/organization', {
    name,
    logo_url: 'https://cdn.example.com/logo.png',
    abandoned_checkout: { enabled: true, after_minutes: afterMinutes },
  });
  expect(changed.status).toBe(200);
  return store;
}

/**
 * An order attempt from a fresh shopper session (an access token lives an hour): POST orders the first time, PUT
 * orders/{id} (the retry of a declined order) after.
 */
async function attempt(store: Store, token: string, overrides: Record<string, unknown>) {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const orderId = (await shopper.get(`carts/${token}`)).body.order?.order_id as number | null | undefined;
  const body = orderBody(token, overrides);
  const headers = { 'idempotency-key': key() };
  return orderId ? shopper.put(`orders/${orderId}`, body, headers) : shopper.post('orders', body, headers);
}

/** A declined card (each call a new card: its token is single-use) from a shopper who agreed to emails. */
const declined = () => ({ payment: card(CARDS.declined), email_opt_in: true });

async function cartIdOf(token: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>('SELECT id FROM carts WHERE token = $1', [token]);
  return Number(rows[0]?.id);
}

function remindersTo(name: string) {
  return inbox.messages.filter((mail) => mail.subject === `You left something in your cart at ${name}`);
}

describe('the abandoned-checkout setting', () => {
  it('is off by default, after 60 minutes, and changed by PATCH organization', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    expect((await store.api.get('/organization')).body.abandoned_checkout).toEqual({
      enabled: false,
      after_minutes: 60,
    });
    const on = await store.api.patch('/organization', { abandoned_checkout: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body.abandoned_checkout).toEqual({ enabled: true, after_minutes: 60 });
    const later = await store.api.patch('/organization', { abandoned_checkout: { after_minutes: 180 } });
    expect(later.body.abandoned_checkout).toEqual({ enabled: true, after_minutes: 180 });
    expect((await store.api.get('/organization')).body.abandoned_checkout).toEqual({
      enabled: true,
      after_minutes: 180,
    });
  });

  it('refuses a wait out of range, a wrong type or an unknown field with a 422 naming it', async () => {
    const { store } = await storeWithShopper(t.app, t.db);
    const refused = async (abandonedCheckout: unknown) => {
      const response = await store.api.patch('/organization', { abandoned_checkout: abandonedCheckout });
      expect(response.status).toBe(422);
      return response.body.fields as Record<string, string>;
    };
    expect(await refused({ after_minutes: 2 })).toEqual({
      'abandoned_checkout.after_minutes': 'Wait 5 to 10080 minutes (a week) before the reminder.',
    });
    expect(await refused({ after_minutes: 20_000 })).toEqual({
      'abandoned_checkout.after_minutes': 'Wait 5 to 10080 minutes (a week) before the reminder.',
    });
    expect(await refused({ after_minutes: 7.5 })).toEqual({
      'abandoned_checkout.after_minutes': 'after_minutes is a whole number of minutes.',
    });
    expect(await refused({ enabled: 'yes' })).toEqual({
      'abandoned_checkout.enabled': 'enabled is true or false.',
    });
    expect(Object.keys(await refused({ enabled: true, delay: 5 }))).toEqual(['abandoned_checkout.delay']);
    expect((await store.api.get('/organization')).body.abandoned_checkout).toEqual({
      enabled: false,
      after_minutes: 60,
    });
  });
});

describe('the abandoned-checkout reminder', () => {
  it('sends one reminder after the wait, with the cart, its total and a link that reopens the cart', async () => {
    const name = 'Ada & Co <Roasters>';
    const store = await remindingStore(name, 90);
    const token = await store.cart([
      { offer_id: store.offers.beans.id, quantity: 2 },
      { offer_id: store.offers.mug.id },
    ]);
    expect((await attempt(store, token, declined())).status).toBe(402);
    // Enqueued by the attempt that saved the shopper's contact and consent, due after the store's wait.
    const job = await findJobByKey(t.db, abandonedCheckoutKey(await cartIdOf(token)));
    expect(job).toMatchObject({ status: 'queued', kind: 'email.abandoned_checkout' });
    expect(job!.run_at.getTime()).toBe(t.clock.now().getTime() + 90 * MINUTE);

    // A second attempt (declined again) schedules nothing more.
    t.clock.advance(10 * MINUTE);
    expect((await attempt(store, token, declined())).status).toBe(402);
    expect((await findJobByKey(t.db, abandonedCheckoutKey(await cartIdOf(token))))!.run_at).toEqual(
      job!.run_at,
    );

    t.clock.advance(79 * MINUTE);
    await worker.drain();
    expect(remindersTo(name)).toHaveLength(0);

    t.clock.advance(MINUTE);
    await worker.drain();
    const reminders = remindersTo(name);
    expect(reminders).toHaveLength(1);
    const mail = reminders[0]!;
    expect(mail.to).toMatchObject({ value: [{ address: 'ada@example.com' }] });
    expect(mail.from?.value).toEqual([{ name, address: 'shop@shop.example' }]);
    const recoveryUrl = `${TEST_PUBLIC_URL}/checkout/${token}`;
    const shopper = await shopperSession(t.app, store.org.publicId);
    const cart = (await shopper.get(`carts/${token}`)).body;
    const total = `$${(cart.total as number).toFixed(2)}`;
    for (const body of [mail.text!, mail.html as string]) {
      expect(body).toContain('$36.00');
      expect(body).toContain('$14.00');
      expect(body).toContain(total);
      expect(body).toContain(recoveryUrl);
      expect(body).toContain('agreed to hear from the store');
    }
    expect(mail.text).toContain('2 x Coffee beans: $36.00');
    expect(mail.html).toContain('Ada &amp; Co &lt;Roasters&gt;');
    expect(mail.html).toContain('<img src="https://cdn.example.com/logo.png"');
    expect(mail.text).not.toContain(CARDS.declined);

    const listed = EmailListSchema.parse((await store.api.get('/emails')).body).data;
    expect(listed.filter((email) => email.kind === 'abandoned_checkout')).toMatchObject([
      { status: 'sent', to: 'ada@example.com', order_id: cart.order.order_id, attempts: 1 },
    ]);

    // The link opens the checkout page on this very cart, and the order can still be placed from it.
    const page = await t.app.inject({ method: 'GET', url: new URL(recoveryUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`"organization":"${store.org.publicId}"`);
    expect(cart.offers).toHaveLength(2);
    const placed = await shopper.put(
      `orders/${cart.order.order_id}`,
      orderBody(token, { email_opt_in: true }),
      {
        'idempotency-key': key(),
      },
    );
    expect(placed.status).toBe(200);
    expect(placed.body.order.status).toBe('complete');

    // Exactly one reminder per cart, ever.
    t.clock.advance(24 * 60 * MINUTE);
    await worker.drain();
    expect(remindersTo(name)).toHaveLength(1);
  });

  it('sends nothing when the order is placed before the reminder is due', async () => {
    const name = 'Placed Meanwhile';
    const store = await remindingStore(name);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await attempt(store, token, declined())).status).toBe(402);
    const shopper = await shopperSession(t.app, store.org.publicId);
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id as number;
    const placed = await shopper.put(`orders/${orderId}`, orderBody(token, { email_opt_in: true }), {
      'idempotency-key': key(),
    });
    expect(placed.status).toBe(200);
    t.clock.advance(61 * MINUTE);
    await worker.drain();
    expect(remindersTo(name)).toHaveLength(0);
    expect(await findJobByKey(t.db, abandonedCheckoutKey(await cartIdOf(token)))).toMatchObject({
      status: 'done',
    });
    const kinds = EmailListSchema.parse((await store.api.get('/emails')).body).data.map(
      (email) => email.kind,
    );
    expect(kinds).toEqual(['order_receipt']);
  });

  it('records a reminder whose send failed as not sent once the order is placed before its retry', async () => {
    const name = 'Refused Then Placed';
    const store = await remindingStore(name);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await attempt(store, token, declined())).status).toBe(402);
    t.clock.advance(61 * MINUTE);
    inbox.refuse = 'Mailbox busy, try again later';
    try {
      await worker.drain();
    } finally {
      inbox.refuse = null;
    }
    const reminder = async () =>
      EmailListSchema.parse((await store.api.get('/emails')).body).data.find(
        (email) => email.kind === 'abandoned_checkout',
      );
    expect(await reminder()).toMatchObject({ status: 'retrying', attempts: 1 });

    expect((await attempt(store, token, { email_opt_in: true })).status).toBe(200);
    t.clock.advance(MINUTE);
    await worker.drain();
    expect(remindersTo(name)).toHaveLength(0);
    expect(await reminder()).toMatchObject({ status: 'failed', error: 'Not sent: The order was placed.' });
  });

  it('schedules nothing for a shopper who did not agree to emails, or when the store does not send them', async () => {
    const store = await remindingStore('No Consent');
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await attempt(store, token, { ...declined(), email_opt_in: false })).status).toBe(402);
    expect(await findJobByKey(t.db, abandonedCheckoutKey(await cartIdOf(token)))).toBeNull();

    const { store: quiet } = await storeWithShopper(t.app, t.db);
    const quietToken = await quiet.cart([{ offer_id: quiet.offers.beans.id }]);
    expect((await attempt(quiet, quietToken, declined())).status).toBe(402);
    expect(await findJobByKey(t.db, abandonedCheckoutKey(await cartIdOf(quietToken)))).toBeNull();
  });

  it('sends nothing when, by the time it is due, consent was withdrawn, the email changed or reminders are off', async () => {
    const name = 'Changed Minds';
    const store = await remindingStore(name);
    const withdrawn = await store.cart([{ offer_id: store.offers.beans.id }]);
    const changed = await store.cart([{ offer_id: store.offers.beans.id }]);
    const switchedOff = await store.cart([{ offer_id: store.offers.beans.id }]);
    for (const token of [withdrawn, changed, switchedOff])
      expect((await attempt(store, token, declined())).status).toBe(402);

    t.clock.advance(5 * MINUTE);
    expect((await attempt(store, withdrawn, { ...declined(), email_opt_in: false })).status).toBe(402);
    expect((await attempt(store, changed, { ...declined(), email: 'grace@example.com' })).status).toBe(402);
    t.clock.advance(56 * MINUTE);
    await worker.drain();
    expect(remindersTo(name)).toHaveLength(1);
    expect(remindersTo(name)[0]!.text).toContain(`/checkout/${switchedOff}`);

    // A store that turns reminders off stops those not yet due.
    const other = await remindingStore('Switched Off');
    const token = await other.cart([{ offer_id: other.offers.beans.id }]);
    expect((await attempt(other, token, declined())).status).toBe(402);
    expect((await other.api.patch('/organization', { abandoned_checkout: { enabled: false } })).status).toBe(
      200,
    );
    t.clock.advance(61 * MINUTE);
    await worker.drain();
    expect(remindersTo('Switched Off')).toHaveLength(0);
    expect(await findJobByKey(t.db, abandonedCheckoutKey(await cartIdOf(token)))).toMatchObject({
      status: 'done',
    });
  });
});
