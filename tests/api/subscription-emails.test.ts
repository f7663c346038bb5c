import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailListSchema } from '../../src/contract/email.js';
import { findEmailByJobKey } from '../../src/server/modules/emails/emails-repository.js';
import {
  enqueueSubscriptionEmail,
  subscriptionEmailJob,
  subscriptionEmailKey,
} from '../../src/server/modules/emails/subscription-email-enqueue.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import {
  createPaymentGateways,
  type PaymentGateways,
} from '../../src/server/platform/payments/select-gateway.js';
import {
  DECLINING_TOKEN_PREFIX,
  LOST_CARD_TOKEN_PREFIX,
} from '../../src/server/platform/payments/test-gateway.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import type { Store } from '../helpers/store.js';
import {
  advanceTo,
  DAY,
  expectSelfServiceLink,
  mailFrom,
  namedStore,
  nextChargeAt,
  subscribe,
  workerFor,
} from '../helpers/subscription-emails.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The emails a subscriber gets when their subscription changes (docs/emails.md, "Subscription emails"), sent through
// a real SMTP server by the email jobs, on the real app and database.

let inbox: SmtpInbox;
let t: TestApp;
let gateways: PaymentGateways;
let jobs: ReturnType<typeof workerFor>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({ config: { smtpUrl: inbox.url, mailFrom: 'orders@shop.example' } });
  gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
  jobs = workerFor(t);
});

afterAll(async () => {
  jobs?.mailer.close();
  await Promise.all([t?.close(), inbox?.close()]);
});

const rebill = (using: PaymentGateways = gateways) =>
  runRebills({ db: t.db, gateways: using, clock: t.clock });

async function chargeTokenFromNowOn(subscriptionId: number, prefix: string) {
  await t.db.query(
    `UPDATE payment_methods SET gateway_token = $2
      WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
    [subscriptionId, `${prefix}${subscriptionId}`],
  );
}

async function kindsOf(store: Store, orderId: number): Promise<string[]> {
  const list = EmailListSchema.parse((await store.api.get(`/emails?order_id=${orderId}`)).body);
  return list.data.map((email) => email.kind).sort();
}

describe('the welcome', () => {
  it('sends one welcome for a subscription order, from the store, with a link that opens the subscription', async () => {
    const name = 'Welcome <Roasters> & Co';
    const store = await namedStore(t, name);
    const { id, orderId } = await subscribe(t, store);
    await jobs.worker.drain();

    const welcomes = mailFrom(inbox, name, /subscription at/);
    expect(welcomes).toHaveLength(1);
    const mail = welcomes[0]!;
    expect(mail.subject).toBe(`Your Coffee club subscription at ${name}`);
    expect(mail.from?.value).toEqual([{ name, address: 'orders@shop.example' }]);
    expect(mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address).toBe('ada@example.com');
    const next = await nextChargeAt(store, id);
    expect(next.getTime()).toBe(t.clock.now().getTime() + 30 * DAY);
    expect(mail.text).toContain(
      `You will be charged $27.06 every 30 days, starting on ${dateOf(next)}, until`,
    );
    expect(mail.html).toContain('Welcome &lt;Roasters&gt; &amp; Co');
    expect(mail.html).not.toContain('<Roasters>');
    await expectSelfServiceLink(t, mail, { organizationId: store.org.id, subscriptionId: id });

    expect(await kindsOf(store, orderId)).toEqual(['order_receipt', 'subscription_welcome']);

    // The order's completion retried (its key again), or the job run again: nothing new.
    const sent = inbox.messages.length;
    await enqueueSubscriptionEmail(
      t.db,
      {
        kind: 'welcome',
        organizationId: store.org.id,
        subscriptionId: id,
        occurrence: 'created',
        facts: { cycle_amount: 2706, next_charge_at: next.toISOString() },
      },
      t.clock.now(),
    );
    expect(await jobs.worker.drain()).toBe(0);
    const key = subscriptionEmailKey('welcome', id, 'created');
    const job = await findJobByKey(t.db, key);
    await jobs.handlers[subscriptionEmailJob('welcome')]!(
      { id: job!.id, kind: job!.kind, payload: job!.payload, organizationId: store.org.id, attempt: 2 },
      { db: t.db, now: t.clock.now() },
    );
    expect(inbox.messages.length).toBe(sent);
  });

  it('sends none when the order that started the subscription has no email', async () => {
    const name = 'No Address Roasters';
    const store = await namedStore(t, name);
    const { id, orderId } = await subscribe(t, store);
    await t.db.query(`UPDATE orders SET email = '' WHERE id = $1`, [orderId]);
    // The order's receipt was enqueued with the address it had then; it is not this test's subject.
    await t.db.query(`UPDATE jobs SET status = 'done' WHERE key = $1`, [`receipt:${orderId}`]);
    await jobs.worker.drain();
    const key = subscriptionEmailKey('welcome', id, 'created');
    expect(await findJobByKey(t.db, key)).toMatchObject({ status: 'done' });
    expect(await findEmailByJobKey(t.db, key)).toBeNull();
    expect(mailFrom(inbox, name)).toHaveLength(0);
  });
});

describe('the renewal emails', () => {
  it('sends a receipt for a renewal: the amount, the cycle, the card and the next charge date', async () => {
    const name = 'Renewal Roasters';
    const store = await namedStore(t, name);
    const { id, orderId } = await subscribe(t, store);
    advanceTo(t, await nextChargeAt(store, id));
    await rebill();
    await jobs.worker.drain();

    const receipts = mailFrom(inbox, name, /^Receipt for your Coffee club renewal/);
    expect(receipts).toHaveLength(1);
    const mail = receipts[0]!;
    const next = await nextChargeAt(store, id);
    for (const body of [mail.text!, mail.html as string]) {
      expect(body).toContain('Your subscription to Coffee club was renewed: cycle 2.');
      expect(body).toContain('Charged: $27.06. Paid with Visa ending in 1111.');
      expect(body).toContain(`Your next charge is on ${dateOf(next)}.`);
    }
    await expectSelfServiceLink(t, mail, { organizationId: store.org.id, subscriptionId: id });
    expect(await kindsOf(store, orderId)).toEqual([
      'order_receipt',
      'subscription_renewal_receipt',
      'subscription_welcome',
    ]);
  });

  it('sends the failed payment with the link to update the card and the next retry date', async () => {
    const name = 'Declined Roasters';
    const store = await namedStore(t, name);
    const { id } = await subscribe(t, store);
    await chargeTokenFromNowOn(id, DECLINING_TOKEN_PREFIX);
    advanceTo(t, await nextChargeAt(store, id));
    const declinedAt = t.clock.now();
    await rebill();
    await jobs.worker.drain();

    const failed = mailFrom(inbox, name, /^Action needed/);
    expect(failed).toHaveLength(1);
    const mail = failed[0]!;
    expect(mail.subject).toBe(`Action needed: your Coffee club payment at ${name} failed`);
    expect(mail.text).toContain('We could not charge $27.06 for your subscription to Coffee club.');
    const retryAt = new Date(declinedAt.getTime() + DAY);
    expect((await nextChargeAt(store, id)).getTime()).toBe(retryAt.getTime());
    expect(mail.text).toContain(`We will try again on ${dateOf(retryAt)}.`);
    const url = await expectSelfServiceLink(t, mail, { organizationId: store.org.id, subscriptionId: id });
    expect(mail.text).toContain(`Update your card:\n${url}`);
    expect(mail.html).toContain('>Update your card</a>');

    // The retry is declined too: a second failed-payment email, for that attempt.
    advanceTo(t, retryAt);
    await rebill();
    await jobs.worker.drain();
    expect(mailFrom(inbox, name, /^Action needed/)).toHaveLength(2);
  });

  it("tells the dunning's end in the failed-payment email, with no second email", async () => {
    for (const [after, said] of [
      ['past_due', 'Your subscription is now past due'],
      ['cancel', 'Your subscription is now cancelled'],
      ['pause', 'Your subscription is now paused'],
    ] as const) {
      const name = `Lost Card Roasters (${after})`;
      const store = await namedStore(t, name);
      await store.api.patch('/organization', { dunning: { retry_days: [1, 3], after_last_retry: after } });
      const { id, orderId } = await subscribe(t, store);
      await chargeTokenFromNowOn(id, LOST_CARD_TOKEN_PREFIX);
      advanceTo(t, await nextChargeAt(store, id));
      await rebill();
      await jobs.worker.drain();
      const failed = mailFrom(inbox, name, /^Action needed/);
      expect(failed, after).toHaveLength(1);
      expect(failed[0]!.text).toContain(said);
      expect(await kindsOf(store, orderId)).toEqual([
        'order_receipt',
        'subscription_payment_failed',
        'subscription_welcome',
      ]);
    }
  });

  it('sends nothing when the processor did not answer: nothing was declined', async () => {
    const name = 'Outage Roasters';
    const store = await namedStore(t, name);
    const { id, orderId } = await subscribe(t, store);
    advanceTo(t, await nextChargeAt(store, id));
    const down = { ...gateways.card, charge: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    await rebill({ card: down, express: down });
    await jobs.worker.drain();
    expect(await kindsOf(store, orderId)).toEqual(['order_receipt', 'subscription_welcome']);
  });
});

describe("the merchant's changes", () => {
  it('confirms a pause, a resume and a cancellation once each', async () => {
    const name = 'Changing Roasters';
    const store = await namedStore(t, name);
    const { id, orderId } = await subscribe(t, store);
    await jobs.worker.drain();

    expect((await store.api.post(`/subscriptions/${id}/pause`, {})).body.status).toBe('paused');
    // Paused again: nothing changes, nothing is sent.
    expect((await store.api.post(`/subscriptions/${id}/pause`, {})).status).toBe(200);
    await jobs.worker.drain();
    const paused = mailFrom(inbox, name, /is paused$/);
    expect(paused).toHaveLength(1);
    expect(paused[0]!.text).toContain('Your subscription to Coffee club is paused.');
    await expectSelfServiceLink(t, paused[0]!, { organizationId: store.org.id, subscriptionId: id });

    t.clock.advance(1000);
    const resumed = (await store.api.post(`/subscriptions/${id}/resume`, {})).body;
    expect(resumed.status).toBe('active');
    await jobs.worker.drain();
    const active = mailFrom(inbox, name, /is active again$/);
    expect(active).toHaveLength(1);
    expect(active[0]!.text).toContain(
      `Your next charge of $27.06 is on ${dateOf(new Date(resumed.next_charge_at as string))}.`,
    );

    t.clock.advance(1000);
    expect((await store.api.post(`/subscriptions/${id}/cancel`, {})).body.status).toBe('cancelled');
    await jobs.worker.drain();
    const cancelled = mailFrom(inbox, name, /is cancelled$/);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.text).toContain('Your subscription to Coffee club is cancelled.');

    expect(await kindsOf(store, orderId)).toEqual([
      'order_receipt',
      'subscription_cancelled',
      'subscription_paused',
      'subscription_resumed',
      'subscription_welcome',
    ]);
  });
});

describe('a job that failed', () => {
  it('is retried after the SMTP server refused it, and sends its email once', async () => {
    const name = 'Refused Roasters';
    const store = await namedStore(t, name);
    const { id } = await subscribe(t, store);
    await jobs.worker.drain();
    expect((await store.api.post(`/subscriptions/${id}/pause`, {})).status).toBe(200);
    const key = subscriptionEmailKey('paused', id, String(t.clock.now().getTime()));

    inbox.refuse = 'Mailbox unavailable';
    try {
      await jobs.worker.drain();
    } finally {
      inbox.refuse = null;
    }
    expect(await findEmailByJobKey(t.db, key)).toMatchObject({ status: 'failed' });
    expect(await findJobByKey(t.db, key)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(mailFrom(inbox, name, /is paused$/)).toHaveLength(0);

    t.clock.advance(31_000);
    await jobs.worker.drain();
    expect(await findJobByKey(t.db, key)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await findEmailByJobKey(t.db, key)).toMatchObject({ status: 'sent' });
    expect(mailFrom(inbox, name, /is paused$/)).toHaveLength(1);

    // Run once more (a worker that died after sending): the email is sent already.
    const job = await findJobByKey(t.db, key);
    await jobs.handlers[subscriptionEmailJob('paused')]!(
      { id: job!.id, kind: job!.kind, payload: job!.payload, organizationId: store.org.id, attempt: 3 },
      { db: t.db, now: t.clock.now() },
    );
    expect(mailFrom(inbox, name, /is paused$/)).toHaveLength(1);
  });
});

function dateOf(date: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}
