import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriberSubscriptionSchema } from '../../src/contract/subscriber.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { createTokenService } from '../../src/server/platform/security/tokens.js';
import { DECLINING_TOKEN_PREFIX, TEST_CARDS } from '../../src/server/platform/payments/test-gateway.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession, tokenizeCard } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import {
  createTestApp,
  injectJson,
  processorOf,
  subscriberLinksOf,
  TEST_PROCESSOR_URL,
  type TestApp,
} from '../helpers/test-app.js';

const DAY = 86_400_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { webhooks: { requireHttps: false, allowPrivateUrls: true } } });
});

afterAll(async () => {
  await t.close();
});

const rebill = () =>
  runRebills({
    db: t.db,
    gateways: createPaymentGateways(t.config, { db: t.db, clock: t.clock }),
    clock: t.clock,
  });

/** A customer subscribes to the club (US, Texas: 25.00 later cycles + 8.25% tax = 27.06 per renewal). */
async function subscribe(store: Store): Promise<number> {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: store.offers.club.id }]);
  await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const detail = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
  return detail.subscription_ids[0];
}

/** The merchant makes a link and the subscriber's page calls the API with its token. */
async function subscriberOf(store: Store, id: number) {
  const link = await store.api.post(`/subscriptions/${id}/manage-link`, {});
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const token = new URL(link.body.url).pathname.split('/').pop() as string;
  return clientWith(token);
}

const GERMAN_GONE =
  'Dieses Abonnement wurde nicht gefunden. Bitten Sie den Shop um einen neuen Link, um es zu verwalten.';

function clientWith(token: string | null) {
  const headers = token === null ? {} : { authorization: `Bearer ${token}` };
  const base = '/checkout/api/subscriber/subscription';
  return {
    token,
    read: () => injectJson(t.app, { method: 'GET', url: base, headers }),
    act: (action: string, payload: Record<string, unknown> = {}) =>
      injectJson(t.app, { method: 'POST', url: `${base}/${action}`, headers, payload }),
  };
}

describe('the merchant manage link', () => {
  it('answers a link to the page with its expiry, for this organization only', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    const link = await store.api.post(`/subscriptions/${id}/manage-link`, {});
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/^http:\/\/checkout\.test\/checkout\/manage\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(new Date(link.body.expires_at).getTime()).toBe(
      Math.floor(t.clock.now().getTime() / 1000) * 1000 + 30 * DAY,
    );
    const other = await createStore(t.app, t.db);
    const refused = await other.api.post(`/subscriptions/${id}/manage-link`, {});
    expect(refused.status).toBe(404);
    expect((await store.api.post(`/subscriptions/999999/manage-link`, {})).status).toBe(404);
  });
});

describe('the self-service page', () => {
  it('is served for any token, without caching, with the page policy and no referrer', async () => {
    for (const token of ['not-a-token', 'a.b.c']) {
      const page = await t.app.inject({ method: 'GET', url: `/checkout/manage/${token}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('never logs the token', async () => {
    const store = await createStore(t.app, t.db);
    const client = await subscriberOf(store, await subscribe(store));
    const before = t.logs.length;
    await t.app.inject({ method: 'GET', url: `/checkout/manage/${client.token}` });
    await client.read();
    await client.act('pause');
    const lines = t.logs.slice(before).join('');
    expect(lines).toContain('/checkout/manage/*');
    expect(lines).not.toContain(client.token);
  });
});

describe('the subscriber API', () => {
  it('reads the subscription the link names', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    const read = await (await subscriberOf(store, id)).read();
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const view = SubscriberSubscriptionSchema.parse(read.body);
    const merchant = (await store.api.get(`/subscriptions/${id}`)).body;
    expect(view).toMatchObject({
      id,
      store: { name: expect.stringMatching(/^Store /), logo_url: null },
      item_name: 'Coffee club',
      currency: 'USD',
      cycle_amount: 27.06,
      interval_days: 30,
      status: 'active',
      next_charge_at: merchant.next_charge_at,
      cancel_at: null,
      card: { brand: merchant.payment_method.card_brand, last4: merchant.payment_method.card_last4 },
      charges: [],
      cancel_effect: 'end_of_period',
      card_processor: { name: 'test', origin: 'http://processor.test' },
    });
    expect(view.card?.last4).toMatch(/^\d{4}$/);
  });

  it('refuses a missing, bad, expired or foreign link with a message a person can act on', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    const missing = await clientWith(null).read();
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: 'subscriber_link_missing' });
    expect(missing.body.message).toMatch(/link from your subscription email/);

    const bad = await clientWith('not-a-token').read();
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 'subscriber_link_invalid' });
    expect(bad.body.message).toMatch(/Ask the store for a new link/);

    // Signed with another server's secret: not ours.
    const forged = createTokenService({ current: 'another-secret-another-secret-another' }, t.clock);
    const foreign = await clientWith(
      forged.issueSubscriberToken({ organizationId: store.org.id, subscriptionId: id }, 3600),
    ).read();
    expect(foreign.status).toBe(401);
    expect(foreign.body.code).toBe('subscriber_link_invalid');

    const expiring = subscriberLinksOf(t).linkFor({ organizationId: store.org.id, subscriptionId: id });
    const old = clientWith(new URL(expiring.url).pathname.split('/').pop() as string);
    expect((await old.read()).status).toBe(200);
    t.clock.set(new Date(expiring.expiresAt.getTime() + 1000));
    const expired = await old.read();
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 'subscriber_link_expired' });
    expect(expired.body.message).toBe(
      'This link has expired. Ask the store for a new link to manage your subscription.',
    );
    expect((await old.act('pause')).status).toBe(401);
    expect((await store.api.get(`/subscriptions/${id}`)).body.status).toBe('active');
  });

  it("never reaches another organization's subscription", async () => {
    const a = await createStore(t.app, t.db);
    const b = await createStore(t.app, t.db);
    const ofA = await subscribe(a);
    // A link of B's naming A's subscription id: B has no such subscription.
    const links = subscriberLinksOf(t);
    const crossed = links.linkFor({ organizationId: b.org.id, subscriptionId: ofA });
    const client = clientWith(new URL(crossed.url).pathname.split('/').pop() as string);
    const read = await client.read();
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('subscription_not_found');
    expect(read.body.message).toBe(
      'This subscription could not be found. Ask the store for a new link to manage it.',
    );
    // The page asks in its language: the same refusal, said in it.
    const german = await injectJson(t.app, {
      method: 'GET',
      url: '/checkout/api/subscriber/subscription',
      headers: { authorization: `Bearer ${client.token}`, 'accept-language': 'de' },
    });
    expect(german.status).toBe(404);
    expect(german.body).toMatchObject({ code: 'subscription_not_found', message: GERMAN_GONE });
    for (const action of ['pause', 'resume', 'cancel']) expect((await client.act(action)).status).toBe(404);
    expect((await client.act('skip', { next_charge_at: new Date().toISOString() })).status).toBe(404);
    expect((await a.api.get(`/subscriptions/${ofA}`)).body).toMatchObject({
      status: 'active',
      cancel_at: null,
    });
  });

  it('pauses and resumes, as the merchant API and webhooks show', async () => {
    const store = await createStore(t.app, t.db);
    await store.api.post('/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      events: [
        'subscription.paused',
        'subscription.resumed',
        'subscription.updated',
        'subscription.cancelled',
      ],
    });
    const id = await subscribe(store);
    const client = await subscriberOf(store, id);
    const paused = await client.act('pause');
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body).toMatchObject({ status: 'paused', next_charge_at: null });
    expect((await store.api.get(`/subscriptions/${id}`)).body).toMatchObject({
      status: 'paused',
      changed_by: 'subscriber',
    });
    // Pausing again changes nothing.
    expect((await client.act('pause')).body.status).toBe('paused');
    const resumed = await client.act('resume');
    expect(resumed.body).toMatchObject({ status: 'active' });
    expect(resumed.body.next_charge_at).not.toBeNull();
    const events = await deliveredEvents(store);
    expect(events.map((e) => [e.type, e.data.status, e.data.changed_by])).toEqual([
      ['subscription.paused', 'paused', 'subscriber'],
      ['subscription.resumed', 'active', 'subscriber'],
    ]);
  });

  it('skips the next charge once per click, and refuses when there is nothing to skip', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    const client = await subscriberOf(store, id);
    const before = (await client.read()).body;
    const skipped = await client.act('skip', { next_charge_at: before.next_charge_at });
    expect(skipped.status, JSON.stringify(skipped.body)).toBe(200);
    expect(new Date(skipped.body.next_charge_at).getTime()).toBe(
      new Date(before.next_charge_at).getTime() + 30 * DAY,
    );
    // The same click again (a double click, a second tab) skips nothing more.
    const again = await client.act('skip', { next_charge_at: before.next_charge_at });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('charge_already_moved');
    expect(again.body.message).toContain(skipped.body.next_charge_at.slice(0, 10));
    // Skipping the new date skips one more.
    const twice = await client.act('skip', { next_charge_at: skipped.body.next_charge_at });
    expect(new Date(twice.body.next_charge_at).getTime()).toBe(
      new Date(before.next_charge_at).getTime() + 60 * DAY,
    );
    expect((await store.api.get(`/subscriptions/${id}`)).body.next_charge_at).toBe(twice.body.next_charge_at);

    const invalid = await client.act('skip', { next_charge_at: 'soon' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.fields.next_charge_at).toMatch(/next charge date/);

    await client.act('pause');
    const paused = await client.act('skip', { next_charge_at: twice.body.next_charge_at });
    expect(paused.status).toBe(409);
    expect(paused.body).toMatchObject({ code: 'subscription_paused' });
  });

  it('refuses to skip the charge of a past-due subscription', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    await t.db.query(`UPDATE subscriptions SET status = 'past_due' WHERE id = $1`, [id]);
    const client = await subscriberOf(store, id);
    const refused = await client.act('skip', {
      next_charge_at: (await store.api.get(`/subscriptions/${id}`)).body.next_charge_at,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('subscription_past_due');
    expect(refused.body.message).toMatch(/update the card/);
  });

  it('cancels at the end of the paid period by default: not charged again, cancelled at that date', async () => {
    const store = await createStore(t.app, t.db);
    await store.api.post('/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['subscription.updated', 'subscription.cancelled', 'subscription.renewed'],
    });
    const id = await subscribe(store);
    const client = await subscriberOf(store, id);
    const dueAt = (await client.read()).body.next_charge_at;
    const cancelled = await client.act('cancel');
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'active', cancel_at: dueAt, next_charge_at: null });
    expect((await store.api.get(`/subscriptions/${id}`)).body).toMatchObject({
      status: 'active',
      cancel_at: dueAt,
      changed_by: 'subscriber',
    });
    const skip = await client.act('skip', { next_charge_at: dueAt });
    expect(skip.status).toBe(409);
    expect(skip.body.code).toBe('subscription_cancel_scheduled');

    t.clock.set(new Date(new Date(dueAt).getTime() + 1000));
    const summary = await rebill();
    expect(summary.endedAsScheduled).toBeGreaterThanOrEqual(1);
    const after = (await store.api.get(`/subscriptions/${id}`)).body;
    expect(after).toMatchObject({ status: 'cancelled', cancelled_at: dueAt, cancel_at: null, charges: [] });
    // The first link has expired by now (30 days): the merchant passes on a fresh one.
    const later = await subscriberOf(store, id);
    expect((await later.read()).body).toMatchObject({ status: 'cancelled', cancelled_at: dueAt });
    expect((await later.act('resume')).status).toBe(409);
    t.clock.advance(40 * DAY);
    await rebill();
    expect((await store.api.get(`/subscriptions/${id}`)).body.charges).toEqual([]);
    const events = await deliveredEvents(store);
    expect(events.map((e) => [e.type, e.data.status, e.data.cancel_at])).toEqual([
      ['subscription.updated', 'active', dueAt],
      ['subscription.cancelled', 'cancelled', null],
    ]);
  });

  it('keeps a subscription whose cancel is scheduled when the subscriber resumes it', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    const client = await subscriberOf(store, id);
    const dueAt = (await client.read()).body.next_charge_at;
    await client.act('cancel');
    const pause = await client.act('pause');
    expect(pause.status).toBe(409);
    expect(pause.body.code).toBe('subscription_cancel_scheduled');
    const kept = await client.act('resume');
    expect(kept.body).toMatchObject({ status: 'active', cancel_at: null, next_charge_at: dueAt });
    t.clock.set(new Date(new Date(dueAt).getTime() + 1000));
    await rebill();
    expect((await store.api.get(`/subscriptions/${id}`)).body).toMatchObject({ status: 'active', cycle: 2 });
  });

  it('cancels at once when the organization says so', async () => {
    const store = await createStore(t.app, t.db);
    const set = await store.api.patch('/organization', { self_service: { cancel: 'immediately' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.self_service).toEqual({ cancel: 'immediately' });
    expect((await store.api.get('/organization')).body.self_service).toEqual({ cancel: 'immediately' });
    const wrong = await store.api.patch('/organization', { self_service: { cancel: 'tomorrow' } });
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(wrong.body.fields)).toContain('Use immediately or end_of_period.');

    const id = await subscribe(store);
    const client = await subscriberOf(store, id);
    expect((await client.read()).body.cancel_effect).toBe('immediately');
    const cancelled = await client.act('cancel');
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancel_at: null,
      cancelled_at: t.clock.now().toISOString(),
    });
    const again = await client.act('cancel');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('subscription_cancelled');
  });

  it('takes a new card from the test processor, and the next dunning retry charges it', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    // The stored card goes bad: the renewal is declined and a retry is scheduled a day later.
    await t.db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
      [id, `${DECLINING_TOKEN_PREFIX}${id}`],
    );
    const dueAt = new Date((await store.api.get(`/subscriptions/${id}`)).body.next_charge_at).getTime();
    if (dueAt > t.clock.now().getTime()) t.clock.set(new Date(dueAt));
    await rebill();
    const declined = (await store.api.get(`/subscriptions/${id}`)).body;
    expect(declined).toMatchObject({ status: 'active', retry_count: 1, cycle: 1 });

    const client = await subscriberOf(store, id);
    const refusedCard = await client.act('card', {
      card_token: await tokenizeCard(t.app, {
        number: TEST_CARDS.declined,
        cvv: '123',
        exp_month: 12,
        exp_year: 2030,
        test_cards: [],
      }),
    });
    expect(refusedCard.status).toBe(402);
    expect(refusedCard.body.message).toMatch(/declined/);

    const token = await tokenizeCard(t.app, {
      number: '5555555555554444',
      cvv: '123',
      exp_month: 11,
      exp_year: 2031,
      test_cards: [],
    });
    const updated = await client.act('card', { card_token: token });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.card).toEqual({ brand: 'mastercard', last4: '4444' });
    expect(updated.body.next_charge_at).toBe(t.clock.now().toISOString());
    // The same request again (a retry) saves nothing twice.
    expect((await client.act('card', { card_token: token })).body.card).toEqual({
      brand: 'mastercard',
      last4: '4444',
    });
    const methods = await t.db.query<{ n: number }>(
      `SELECT count(*)::bigint AS n FROM payment_methods WHERE organization_id = $1 AND card_last4 = '4444'`,
      [store.org.id],
    );
    expect(methods.rows[0]?.n).toBe(1);

    await rebill();
    const renewed = (await store.api.get(`/subscriptions/${id}`)).body;
    expect(renewed).toMatchObject({ status: 'active', cycle: 2, retry_count: 0, changed_by: 'subscriber' });
    expect(renewed.payment_method).toMatchObject({ card_brand: 'mastercard', card_last4: '4444' });
    expect(renewed.charges.map((c: { status: string }) => c.status)).toEqual(['declined', 'approved']);
  });

  it("saves a card whose bank asks for 3-D Secure only once the subscriber passed the bank's challenge", async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    const client = await subscriberOf(store, id);
    const typed = (number: string) =>
      tokenizeCard(t.app, { number, cvv: '123', exp_month: 10, exp_year: 2032, test_cards: [] });
    const token = await typed(TEST_CARDS.authenticate);
    const asked = await client.act('card', { card_token: token });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body).toEqual({
      reference: expect.stringMatching(/^auth_test_/),
      payment_action: {
        type: 'challenge',
        url: expect.stringMatching(/^http:\/\/processor\.test\/challenge\//),
      },
    });
    // Nothing is saved while the bank waits.
    expect((await client.read()).body.card).not.toEqual({ brand: 'visa', last4: '3184' });
    const early = await client.act('card', { card_token: token, authenticated: asked.body.reference });
    expect(early.status).toBe(202);

    await decideChallenge(asked.body.payment_action.url, 'complete');
    const saved = await client.act('card', { card_token: token, authenticated: asked.body.reference });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.card).toEqual({ brand: 'visa', last4: '3184' });

    const second = await typed(TEST_CARDS.authenticate);
    const again = await client.act('card', { card_token: second });
    await decideChallenge(again.body.payment_action.url, 'fail');
    const failed = await client.act('card', { card_token: second, authenticated: again.body.reference });
    expect(failed.status).toBe(402);
    expect(failed.body.code).toBe('authentication_failed');
    expect((await client.read()).body.card).toEqual({ brand: 'visa', last4: '3184' });
    // The processor's records hold each save, nothing charged, in the subscription's currency.
    const ledger = await t.db.query<{ kind: string; amount: number; currency: string }>(
      `SELECT kind, amount, currency FROM test_gateway_charges WHERE organization_id = $1 AND kind = 'setup'`,
      [store.org.id],
    );
    expect(ledger.rows).toEqual([
      { kind: 'setup', amount: 0, currency: 'USD' },
      { kind: 'setup', amount: 0, currency: 'USD' },
    ]);
  });

  it('makes a past-due subscription active with a new card and charges it at the next run', async () => {
    const store = await createStore(t.app, t.db);
    const id = await subscribe(store);
    await t.db.query(`UPDATE subscriptions SET status = 'past_due', retry_count = 4 WHERE id = $1`, [id]);
    const client = await subscriberOf(store, id);
    const token = await tokenizeCard(t.app, {
      number: '4111111111111111',
      cvv: '123',
      exp_month: 1,
      exp_year: 2032,
      test_cards: [],
    });
    const updated = await client.act('card', { card_token: token });
    expect(updated.body).toMatchObject({ status: 'active', card: { last4: '1111' } });
    await rebill();
    expect((await store.api.get(`/subscriptions/${id}`)).body).toMatchObject({ status: 'active', cycle: 2 });
  });

  it('stops a link from trying card after card', async () => {
    const store = await createStore(t.app, t.db);
    const client = await subscriberOf(store, await subscribe(store));
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await client.act('card', { card_token: `tok_unknown_${attempt}` })).status).toBe(402);
    }
    const limited = await client.act('card', { card_token: 'tok_unknown_6' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('too_many_requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Reading is not a change: the page still shows the subscription.
    expect((await client.read()).status).toBe(200);
  });

  it('refuses a card number sent instead of a token', async () => {
    const store = await createStore(t.app, t.db);
    const client = await subscriberOf(store, await subscribe(store));
    const refused = await client.act('card', { card_token: '4111111111111111' });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).not.toContain('4111111111111111');
  });
});

async function deliveredEvents(store: Store): Promise<{ type: string; data: Record<string, any> }[]> {
  const { rows } = await t.db.query<{ event_type: string; payload: unknown }>(
    'SELECT event_type, payload FROM webhook_deliveries WHERE organization_id = $1 ORDER BY id',
    [store.org.id],
  );
  return rows.map((row) => {
    const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
      data: Record<string, any>;
    };
    return { type: row.event_type, data: payload.data };
  });
}

/** What the subscriber does on the bank's challenge page, at the processor's origin. */
async function decideChallenge(url: string, result: 'complete' | 'fail') {
  const processor = processorOf(t.app);
  if (!processor) throw new Error('no test processor');
  const answer = await injectJson(processor, {
    method: 'POST',
    url: new URL(url).pathname,
    headers: { origin: TEST_PROCESSOR_URL },
    payload: { result },
  });
  expect(answer.status).toBeLessThan(300);
}
