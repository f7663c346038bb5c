import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleChargeReminders } from '../../src/server/modules/emails/charge-reminders.js';
import { findEmailByJobKey } from '../../src/server/modules/emails/emails-repository.js';
import {
  chargeReminderOccurrence,
  subscriptionEmailKey,
} from '../../src/server/modules/emails/subscription-email-enqueue.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { findJobByKey } from '../../src/server/platform/jobs/jobs-repository.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
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

// The upcoming-charge reminder and its setting (docs/emails.md, "Subscription emails"): found by the scan that runs
// beside every job worker, sent once per charge date through a real SMTP server.

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

/** One scan and the jobs it enqueued, as the worker beside it runs them. */
async function scanAndSend(): Promise<void> {
  await scheduleChargeReminders(t.db, t.clock.now());
  await jobs.worker.drain();
}

const reminders = (name: string) => mailFrom(inbox, name, / renews on /);

function reminderKey(id: number, chargeAt: Date): string {
  return subscriptionEmailKey('charge_reminder', id, chargeReminderOccurrence(chargeAt));
}

async function subscribedStore(name: string): Promise<{ store: Store; id: number; chargeAt: Date }> {
  const store = await namedStore(t, name);
  const { id } = await subscribe(t, store);
  await jobs.worker.drain();
  return { store, id, chargeAt: await nextChargeAt(store, id) };
}

describe('the upcoming-charge reminder', () => {
  it('is sent once, 3 days before the charge by default, and not again on later scans', async () => {
    const name = 'Reminding Roasters';
    const { store, id, chargeAt } = await subscribedStore(name);

    advanceTo(t, new Date(chargeAt.getTime() - 3 * DAY - 60_000));
    await scanAndSend();
    expect(reminders(name)).toHaveLength(0);

    advanceTo(t, new Date(chargeAt.getTime() - 3 * DAY + 60_000));
    await scanAndSend();
    const sent = reminders(name);
    expect(sent).toHaveLength(1);
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(chargeAt);
    expect(sent[0]!.subject).toBe(`Your Coffee club subscription at ${name} renews on ${date}`);
    expect(sent[0]!.text).toContain(
      `Your subscription to Coffee club renews on ${date}: we will charge $27.06.`,
    );
    await expectSelfServiceLink(t, sent[0]!, { organizationId: store.org.id, subscriptionId: id });
    expect(await findEmailByJobKey(t.db, reminderKey(id, chargeAt))).toMatchObject({
      kind: 'subscription_charge_reminder',
      status: 'sent',
    });

    await scanAndSend();
    advanceTo(t, new Date(chargeAt.getTime() - DAY));
    await scanAndSend();
    expect(reminders(name)).toHaveLength(1);
  });

  it('is not sent for a subscription paused after the scan found it, nor found while it stays paused', async () => {
    const name = 'Pausing Roasters';
    const { store, id, chargeAt } = await subscribedStore(name);
    advanceTo(t, new Date(chargeAt.getTime() - 3 * DAY + 60_000));
    await scheduleChargeReminders(t.db, t.clock.now());
    expect(await findJobByKey(t.db, reminderKey(id, chargeAt))).toMatchObject({ status: 'queued' });

    expect((await store.api.post(`/subscriptions/${id}/pause`, {})).body.status).toBe('paused');
    await jobs.worker.drain();
    expect(await findJobByKey(t.db, reminderKey(id, chargeAt))).toMatchObject({ status: 'done' });
    expect(await findEmailByJobKey(t.db, reminderKey(id, chargeAt))).toBeNull();
    expect(mailFrom(inbox, name, /is paused$/)).toHaveLength(1);

    t.clock.advance(60_000);
    await scanAndSend();
    expect(reminders(name)).toHaveLength(0);
  });

  it("is sent again for the subscription's next date after a renewal, once that date comes within the days", async () => {
    const name = 'Renewing Roasters';
    const { store, id, chargeAt } = await subscribedStore(name);
    advanceTo(t, new Date(chargeAt.getTime() - 3 * DAY + 60_000));
    await scanAndSend();
    advanceTo(t, chargeAt);
    await runRebills({
      db: t.db,
      gateways: createPaymentGateways(t.config, { db: t.db, clock: t.clock }),
      clock: t.clock,
    });
    const next = await nextChargeAt(store, id);
    expect(next.getTime()).toBe(chargeAt.getTime() + 30 * DAY);
    await scanAndSend();
    expect(reminders(name)).toHaveLength(1);
    advanceTo(t, new Date(next.getTime() - 3 * DAY + 60_000));
    await scanAndSend();
    expect(reminders(name)).toHaveLength(2);
    expect(await findEmailByJobKey(t.db, reminderKey(id, next))).toMatchObject({ status: 'sent' });
  });
});

describe('the reminder setting', () => {
  it('defaults to 3 days, is read back as set, and changes when the reminder is sent', async () => {
    const name = 'Five Day Roasters';
    const store = await namedStore(t, name);
    expect((await store.api.get('/organization')).body.subscription_emails).toEqual({
      reminder_days_before: 3,
    });
    const changed = await store.api.patch('/organization', {
      subscription_emails: { reminder_days_before: 5 },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.subscription_emails).toEqual({ reminder_days_before: 5 });
    await store.api.patch('/organization', { logo_url: null });
    expect((await store.api.get('/organization')).body.subscription_emails).toEqual({
      reminder_days_before: 5,
    });

    const { id } = await subscribe(t, store);
    const chargeAt = await nextChargeAt(store, id);
    advanceTo(t, new Date(chargeAt.getTime() - 5 * DAY + 60_000));
    await scanAndSend();
    expect(reminders(name)).toHaveLength(1);
  });

  it('sends no reminder when set to null', async () => {
    const name = 'Quiet Roasters';
    const store = await namedStore(t, name);
    const off = await store.api.patch('/organization', {
      subscription_emails: { reminder_days_before: null },
    });
    expect(off.body.subscription_emails).toEqual({ reminder_days_before: null });
    const { id } = await subscribe(t, store);
    const chargeAt = await nextChargeAt(store, id);
    advanceTo(t, new Date(chargeAt.getTime() - DAY));
    await scanAndSend();
    expect(await findJobByKey(t.db, reminderKey(id, chargeAt))).toBeNull();
    expect(reminders(name)).toHaveLength(0);

    // Turned off after the scan found it: the job sends nothing.
    const later = await namedStore(t, 'Later Quiet Roasters');
    const second = await subscribe(t, later);
    const secondAt = await nextChargeAt(later, second.id);
    advanceTo(t, new Date(secondAt.getTime() - 2 * DAY));
    await scheduleChargeReminders(t.db, t.clock.now());
    await later.api.patch('/organization', { subscription_emails: { reminder_days_before: null } });
    await jobs.worker.drain();
    expect(await findJobByKey(t.db, reminderKey(second.id, secondAt))).toMatchObject({ status: 'done' });
    expect(reminders('Later Quiet Roasters')).toHaveLength(0);
  });

  it('is described in the API reference, asked and answered', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/checkout/api/docs' })).json();
    const patch = doc.paths['/checkout/api/merchant/organization'].patch;
    const days = { anyOf: [{ type: 'integer', minimum: 1, maximum: 30 }, { type: 'null' }] };
    expect(patch.requestBody.content['application/json'].schema.properties.subscription_emails).toMatchObject(
      {
        properties: { reminder_days_before: days },
        required: ['reminder_days_before'],
      },
    );
    const answer = patch.responses['200'].content['application/json'].schema;
    expect(answer.required).toContain('subscription_emails');
    expect(answer.properties.subscription_emails.properties.reminder_days_before).toEqual(days);
  });

  it('refuses a number of days it cannot use, saying what to send', async () => {
    const store = await namedStore(t, 'Strict Roasters');
    const refused = async (subscriptionEmails: unknown) => {
      const response = await store.api.patch('/organization', { subscription_emails: subscriptionEmails });
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      return response.body.fields;
    };
    const range = 'Send the reminder 1 to 30 days before the charge, or null for none.';
    expect(await refused({ reminder_days_before: 0 })).toEqual({
      'subscription_emails.reminder_days_before': range,
    });
    expect(await refused({ reminder_days_before: 31 })).toEqual({
      'subscription_emails.reminder_days_before': range,
    });
    const whole = 'Send the reminder a whole number of days before the charge, or null for none.';
    expect(await refused({ reminder_days_before: 2.5 })).toEqual({
      'subscription_emails.reminder_days_before': whole,
    });
    expect(await refused({ reminder_days_before: '3' })).toEqual({
      'subscription_emails.reminder_days_before': whole,
    });
    expect(Object.keys(await refused({}))).toEqual(['subscription_emails.reminder_days_before']);
    expect((await store.api.get('/organization')).body.subscription_emails).toEqual({
      reminder_days_before: 3,
    });
  });
});
