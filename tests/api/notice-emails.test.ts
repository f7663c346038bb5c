import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailListSchema } from '../../src/contract/email.js';
import { CartSchema } from '../../src/contract/cart.js';
import { createEmailJobs } from '../../src/server/modules/emails/email-jobs.js';
import {
  GIFT_CLAIMED_JOB,
  giftClaimedKey,
  giftNoticeKey,
} from '../../src/server/modules/emails/gift-enqueue.js';
import {
  REFUND_CONFIRMATION_JOB,
  refundConfirmationKey,
} from '../../src/server/modules/emails/refund-enqueue.js';
import { enqueueJob } from '../../src/server/platform/jobs/job-queue.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { claimDueJobs, findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { CARDS, card, GIFT_RECIPIENT, LONDON_BILLING, orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import {
  createTestApp,
  injectJson,
  merchantClient,
  subscriberLinksOf,
  type TestApp,
} from '../helpers/test-app.js';

// The gift notice, the giver's note and the refund confirmation (docs/emails.md), sent through a real SMTP server by
// the email jobs' handlers, on the real app and database.

const logger = createLogger({ level: 'silent' });
let inbox: SmtpInbox;
let t: TestApp;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({ config: { smtpUrl: inbox.url, mailFrom: 'orders@shop.example' } });
});

afterAll(async () => {
  await Promise.all([t?.close(), inbox?.close()]);
});

let keyCounter = 0;
const key = () => `notice-emails-${process.pid}-${++keyCounter}`;

function workerFor(app: TestApp) {
  const { mailer, handlers } = createEmailJobs(app.config, subscriberLinksOf(app));
  return { mailer, handlers, worker: createJobWorker(app.db, handlers, { clock: app.clock, logger }) };
}

/** The messages the inbox took for `to`, in the order they came. */
function mailTo(to: string, since: number) {
  return inbox.messages
    .slice(since)
    .filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value.some((v) => v.address === to));
}

/** A store named `name` whose shopper (Ada, billed in London) gives a mug to Grace, dated `giftDate`. */
async function giveMug(name: string, giftDate: string) {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  expect((await store.api.patch('/organization', { name })).status).toBe(200);
  const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
  const cart = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
  const line = cart.offers[0]!.id;
  const saved = await shopper.patch(`order_offers/${line}/gift`, {
    ...GIFT_RECIPIENT,
    gift_date: giftDate,
    gift_message: 'Happy <holidays> & more!',
    order_offer_notes: '',
    order_offer_id: line,
    cart_token: token,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const placed = await shopper.post('orders', orderBody(token, { ...LONDON_BILLING }), {
    'idempotency-key': key(),
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const detail = (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
  const { rows } = await t.db.query<{ id: number }>('SELECT id FROM gift_details WHERE cart_offer_id = $1', [
    line,
  ]);
  return { store, shopper, detail, orderId: detail.order_id as number, giftId: Number(rows[0]!.id) };
}

function claimToken(claimUrl: string): string {
  return new URL(claimUrl).pathname.replace('/checkout/', '');
}

async function claim(store: Store, token: string): Promise<ShopperSession> {
  const recipient = await shopperSession(t.app, store.org.publicId);
  const opened = CartSchema.parse((await recipient.get(`carts/${token}`)).body);
  const claimed = await recipient.post(
    'orders',
    orderBody(opened.cart_token, {
      email: 'grace@example.com',
      ship_fname: 'Grace',
      ship_lname: 'Hopper',
      payment: { method: 'none' },
    }),
  );
  expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
  return recipient;
}

describe("the recipient's gift notice", () => {
  it('sends a gift dated today at once, with a claim link that opens the claim cart', async () => {
    const { worker, mailer } = workerFor(t);
    try {
      const before = inbox.messages.length;
      const { store, detail, orderId } = await giveMug('Mugs & <More>', '2026-11-21');
      await worker.drain();
      const notices = mailTo('grace@example.com', before);
      expect(notices).toHaveLength(1);
      const mail = notices[0]!;
      expect(mail.subject).toBe('Ada Lovelace sent you a gift from Mugs & <More>');
      expect(mail.from?.value).toEqual([{ name: 'Mugs & <More>', address: 'orders@shop.example' }]);
      const claimUrl = detail.gifts[0].claim_url as string;
      expect(claimUrl).toMatch(/\/checkout\/__g__[A-Za-z0-9]{32}$/);
      expect(mail.text).toContain(claimUrl);
      expect(mail.text).toContain('Happy <holidays> & more!');
      expect(mail.text).toContain('Ada Lovelace sent you a gift: Stoneware mug.');
      expect(mail.html).toContain(`href="${claimUrl}"`);
      expect(mail.html).toContain('Happy &lt;holidays&gt; &amp; more!');
      expect(mail.html).not.toContain('<holidays>');
      expect(mail.html).not.toContain('<More>');

      // The link in the email opens the recipient's claim cart.
      const link = /https?:\/\/\S+\/checkout\/__g__[A-Za-z0-9]+/.exec(mail.text!)![0];
      const recipient = await shopperSession(t.app, store.org.publicId);
      const opened = CartSchema.parse((await recipient.get(`carts/${claimToken(link)}`)).body);
      expect(opened).toMatchObject({
        total: 0,
        order: { is_gift_claim: true, gift_from: { name: 'Ada Lovelace' } },
      });

      const list = EmailListSchema.parse((await store.api.get(`/emails?order_id=${orderId}`)).body);
      // A worker sends due jobs side by side: the two emails' order is either.
      expect(list.data.map((email) => [email.kind, email.to, email.status]).sort()).toEqual([
        ['gift_notice', 'grace@example.com', 'sent'],
        ['order_receipt', 'ada@example.com', 'sent'],
      ]);
    } finally {
      mailer.close();
    }
  });

  it('holds a gift dated in 3 days until its day, then sends it once', async () => {
    const { worker, mailer } = workerFor(t);
    const start = t.clock.now();
    try {
      const before = inbox.messages.length;
      // The clock reads 2026-11-21 12:00 UTC; the notice is due at 2026-11-24 00:00 UTC.
      expect(start.toISOString().slice(0, 10)).toBe('2026-11-21');
      const { giftId, detail } = await giveMug('Later Mugs', '2026-11-24');
      await worker.drain();
      expect(mailTo('grace@example.com', before)).toHaveLength(0);
      expect(mailTo('ada@example.com', before)).toHaveLength(1);
      expect(await findJobByKey(t.db, giftNoticeKey(giftId))).toMatchObject({
        status: 'queued',
        run_at: new Date('2026-11-24T00:00:00.000Z'),
      });

      t.clock.set('2026-11-23T23:59:00.000Z');
      expect(await worker.drain()).toBe(0);
      expect(mailTo('grace@example.com', before)).toHaveLength(0);

      t.clock.set('2026-11-24T00:00:30.000Z');
      expect(await worker.drain()).toBe(1);
      const notices = mailTo('grace@example.com', before);
      expect(notices).toHaveLength(1);
      expect(notices[0]!.text).toContain(detail.gifts[0].claim_url as string);

      t.clock.advance(86_400_000);
      expect(await worker.drain()).toBe(0);
      expect(mailTo('grace@example.com', before)).toHaveLength(1);
    } finally {
      t.clock.set(start);
      mailer.close();
    }
  });
});

describe("the giver's note", () => {
  it('tells the giver once when the recipient claims the gift, and a re-run sends nothing', async () => {
    const { worker, mailer, handlers } = workerFor(t);
    try {
      const before = inbox.messages.length;
      const { store, detail, orderId, giftId } = await giveMug('Claim Mugs', '2026-11-21');
      await worker.drain();
      expect(mailTo('ada@example.com', before)).toHaveLength(1); // the receipt only

      await claim(store, claimToken(detail.gifts[0].claim_url));
      // The claim order's own receipt goes to Grace; the note goes to Ada.
      await worker.drain();
      const notes = mailTo('ada@example.com', before).filter((mail) => mail.subject?.includes('claimed'));
      expect(notes).toHaveLength(1);
      expect(notes[0]!.subject).toBe('Grace Hopper claimed your gift from Claim Mugs');
      expect(notes[0]!.text).toContain(`Grace Hopper claimed your gift: Stoneware mug (order #${orderId}).`);

      // Enqueued again (a retried completion) or run again (a worker that died after sending): nothing new.
      const sent = inbox.messages.length;
      await enqueueJob(
        t.db,
        {
          kind: GIFT_CLAIMED_JOB,
          key: giftClaimedKey(giftId),
          payload: { gift_id: giftId },
          organizationId: store.org.id,
        },
        t.clock.now(),
      );
      expect(await worker.drain()).toBe(0);
      await handlers[GIFT_CLAIMED_JOB]!(
        {
          id: 0,
          kind: GIFT_CLAIMED_JOB,
          payload: { gift_id: giftId },
          organizationId: store.org.id,
          attempt: 2,
        },
        { db: t.db, now: t.clock.now() },
      );
      expect(inbox.messages.length).toBe(sent);

      const kinds = EmailListSchema.parse((await store.api.get(`/emails?order_id=${orderId}`)).body).data.map(
        (email) => email.kind,
      );
      expect(kinds.sort()).toEqual(['gift_claimed', 'gift_notice', 'order_receipt']);
    } finally {
      mailer.close();
    }
  });
});

describe('the refund confirmation', () => {
  async function paidOrder(name: string) {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const api = merchantClient(t.app, store.org.apiKey);
    expect((await api.patch('/organization', { name })).status).toBe(200);
    const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
    const placed = await shopper.post('orders', orderBody(token, { payment: card(CARDS.visa) }), {
      'idempotency-key': key(),
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const orderId = placed.body.order.order_id as number;
    const total = (await api.get(`/orders/${orderId}`)).body.total as number;
    return { store, api, orderId, total };
  }

  function refund(apiKey: string, orderId: number, body: Record<string, unknown>) {
    return injectJson(t.app, {
      method: 'POST',
      url: `/checkout/api/merchant/orders/${orderId}/refunds`,
      headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key() },
      payload: body,
    });
  }

  const dollars = (amount: number) => `$${amount.toFixed(2)}`;

  it('confirms each refund once, with its amount, the order and what is left paid', async () => {
    const { worker, mailer, handlers } = workerFor(t);
    try {
      const before = inbox.messages.length;
      const { store, orderId, total } = await paidOrder('Refund <Roasters>');
      await worker.drain();
      expect(mailTo('ada@example.com', before)).toHaveLength(1); // the receipt

      const answer = await refund(store.org.apiKey, orderId, { amount: 12.5 });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const refundId = answer.body.id as number;
      // A worker claims the confirmation, sends it, and dies before the job is recorded done.
      const now = t.clock.now();
      const claimed = await claimDueJobs(t.db, 10, new Date(now.getTime() + 300_000), now);
      const job = claimed.find((row) => row.kind === REFUND_CONFIRMATION_JOB)!;
      expect(job.payload).toMatchObject({ refund_id: refundId, order_id: orderId });
      await handlers[REFUND_CONFIRMATION_JOB]!(
        { id: job.id, kind: job.kind, payload: job.payload, organizationId: job.organization_id, attempt: 1 },
        { db: t.db, now },
      );
      t.clock.advance(300_000);
      await worker.drain();
      expect(await findJobByKey(t.db, refundConfirmationKey(refundId))).toMatchObject({
        status: 'done',
        attempts: 2,
      });

      const confirmations = mailTo('ada@example.com', before).filter((mail) =>
        mail.subject?.includes('refund'),
      );
      expect(confirmations).toHaveLength(1);
      const mail = confirmations[0]!;
      expect(mail.subject).toBe('Your refund of $12.50 from Refund <Roasters>');
      for (const body of [mail.text!, mail.html as string]) {
        expect(body).toContain(`We refunded $12.50 of your order #${orderId}.`);
        expect(body).toContain(`${dollars(total - 12.5)} of the ${dollars(total)} you paid remains paid.`);
      }
      expect(mail.html).toContain('Refund &lt;Roasters&gt;');
      expect(mail.html).not.toContain('<Roasters>');

      // The rest: a second confirmation says the order is refunded in full.
      const rest = await refund(store.org.apiKey, orderId, {});
      expect(rest.status, JSON.stringify(rest.body)).toBe(201);
      await worker.drain();
      const all = mailTo('ada@example.com', before).filter((m) => m.subject?.includes('refund'));
      expect(all).toHaveLength(2);
      expect(all[1]!.text).toContain(`We refunded ${dollars(total - 12.5)} of your order #${orderId}.`);
      expect(all[1]!.text).toContain('Your order is now refunded in full.');

      const list = EmailListSchema.parse((await store.api.get(`/emails?order_id=${orderId}`)).body);
      expect(list.data.map((email) => email.kind)).toEqual([
        'refund_confirmation',
        'refund_confirmation',
        'order_receipt',
      ]);
    } finally {
      mailer.close();
    }
  });
});

describe('with no SMTP settings', () => {
  it('keeps the gift notice locally and lists it with its kind', async () => {
    const kept = await createTestApp();
    const { mailer, handlers } = createEmailJobs(kept.config, subscriberLinksOf(kept));
    try {
      expect(mailer.delivery).toBe('kept');
      const worker = createJobWorker(kept.db, handlers, { clock: kept.clock, logger });
      const { store, shopper } = await storeWithShopper(kept.app, kept.db);
      const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
      const line = CartSchema.parse((await shopper.get(`carts/${token}`)).body).offers[0]!.id;
      await shopper.patch(`order_offers/${line}/gift`, {
        ...GIFT_RECIPIENT,
        gift_date: '2026-11-21',
        order_offer_id: line,
        cart_token: token,
      });
      const placed = await shopper.post('orders', orderBody(token, { ...LONDON_BILLING }), {
        'idempotency-key': key(),
      });
      expect(placed.status).toBe(200);
      await worker.drain();
      const list = EmailListSchema.parse(
        (await store.api.get(`/emails?order_id=${placed.body.order.order_id}`)).body,
      );
      const notice = list.data.find((email) => email.kind === 'gift_notice');
      expect(notice).toMatchObject({ status: 'kept', to: 'grace@example.com' });
      expect(existsSync(path.join(kept.config.dataDir, 'emails', `email-${notice!.id}.eml`))).toBe(true);
    } finally {
      mailer.close();
      await kept.close();
    }
  });
});
