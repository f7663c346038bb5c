import type { ParsedMail } from 'mailparser';
import { expect } from 'vitest';
import { createEmailJobs } from '../../src/server/modules/emails/email-jobs.js';
import type { Clock } from '../../src/server/platform/clock.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { createTokenService } from '../../src/server/platform/security/tokens.js';
import { orderBody } from './order-body.js';
import { shopperSession } from './shopper.js';
import type { SmtpInbox } from './smtp-inbox.js';
import { createStore, type Store } from './store.js';
import { subscriberLinksOf, type TestApp } from './test-app.js';

// What the subscription emails' API tests share (docs/emails.md, "Subscription emails").

const logger = createLogger({ level: 'silent' });
export const DAY = 86_400_000;

export function workerFor(t: TestApp) {
  const { mailer, handlers } = createEmailJobs(t.config, subscriberLinksOf(t));
  return { mailer, handlers, worker: createJobWorker(t.db, handlers, { clock: t.clock, logger }) };
}

/** A store named `name` (its emails come from that name, which tells them from other tests' emails). */
export async function namedStore(t: TestApp, name: string): Promise<Store> {
  const store = await createStore(t.app, t.db);
  expect((await store.api.patch('/organization', { name })).status).toBe(200);
  return store;
}

/** Ada (Austin, Visa ending 1111) subscribes to the club: 29.00 now, then 25.00 + 8.25% tax = 27.06 every 30 days. */
export async function subscribe(t: TestApp, store: Store): Promise<{ id: number; orderId: number }> {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const token = await store.cart([{ offer_id: store.offers.club.id }]);
  await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const orderId = placed.body.order.order_id as number;
  const detail = (await store.api.get(`/orders/${orderId}`)).body;
  return { id: detail.subscription_ids[0] as number, orderId };
}

/** The messages the inbox took from the store named `name`, in the order they came. */
export function mailFrom(inbox: SmtpInbox, name: string, subject?: RegExp): ParsedMail[] {
  return inbox.messages.filter(
    (mail) =>
      mail.from?.value[0]?.name === name && (subject === undefined || subject.test(mail.subject ?? '')),
  );
}

export async function nextChargeAt(store: Store, id: number): Promise<Date> {
  return new Date((await store.api.get(`/subscriptions/${id}`)).body.next_charge_at as string);
}

/** Moves the clock to `at` if it is later (one shared app: clocks move forward only). */
export function advanceTo(t: TestApp, at: Date): void {
  if (at.getTime() > t.clock.now().getTime()) t.clock.set(at);
}

/** The self-service link in an email, checked: it opens this subscription of this organization. */
export async function expectSelfServiceLink(
  t: { tokenSecret: string; clock: Clock },
  mail: ParsedMail,
  subscription: { organizationId: number; subscriptionId: number },
): Promise<string> {
  const match = /http:\/\/checkout\.test\/checkout\/manage\/([A-Za-z0-9_.-]+)/.exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  const [url, token] = match as unknown as [string, string];
  expect(mail.html).toContain(`href="${url}"`);
  const checked = await createTokenService({ current: t.tokenSecret }, t.clock).verifySubscriberToken(token);
  expect(checked).toEqual({ ok: true, value: subscription });
  return url;
}
