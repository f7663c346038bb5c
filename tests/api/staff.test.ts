import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaffSessionSchema } from '../../src/contract/staff.js';
import { createEmailJobs } from '../../src/server/modules/emails/email-jobs.js';
import { runMaintenance } from '../../src/server/modules/housekeeping/maintenance.js';
import { issueOwnerLink, ownerNeedsLink } from '../../src/server/modules/staff/staff-service.js';
import { SESSION_IDLE_MS, SIGN_IN_LIMITS } from '../../src/server/modules/staff/staff-rules.js';
import { createJobWorker } from '../../src/server/platform/jobs/job-worker.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, merchantClient, subscriberLinksOf, type TestApp } from '../helpers/test-app.js';

const logger = createLogger({ level: 'silent' });
let t: TestApp;
let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({ config: { smtpUrl: inbox.url, mailFrom: 'staff@shop.example' } });
});

afterAll(async () => {
  await Promise.all([t?.close(), inbox?.close()]);
});

/** The secret of a one-time link: after its "#". */
const secretOf = (url: string) => new URL(url).hash.slice(1);

function cookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'sc_staff');
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return cookie.value;
}

/** A browser of the dashboard: its cookie, and the CSRF token its session answered. */
function dashboard(cookie: string, csrf: string) {
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    withCsrf = true,
  ) =>
    t.app.inject({
      method,
      url,
      cookies: { sc_staff: cookie },
      headers: withCsrf ? { 'x-csrf-token': csrf } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  return { call };
}

async function storeWithOwner() {
  const store = await createStore(t.app, t.db);
  expect(await ownerNeedsLink(t.db, store.org.id)).toBe(true);
  const link = await issueOwnerLink(t.db, store.org.id, t.config.publicUrl, t.clock.now());
  const email = `owner-${store.org.id}@shop.example`;
  const completed = await t.app.inject({
    method: 'POST',
    url: '/admin/api/links/complete',
    payload: { token: secretOf(link.url), email, name: 'Olive Owner', password: 'a long enough passphrase' },
  });
  expect(completed.statusCode, completed.body).toBe(200);
  const session = StaffSessionSchema.parse(completed.json());
  return { store, email, owner: dashboard(cookieOf(completed), session.csrf_token), session, link };
}

describe("the owner's one-time link", () => {
  it('sets the first owner, signs them in, and works once', async () => {
    const { store, session, link, email } = await storeWithOwner();
    expect(link.url).toMatch(/^http:\/\/checkout\.test\/admin\/link#[\w-]{43}$/);
    expect(session.member).toMatchObject({ email, name: 'Olive Owner', role: 'owner', active: true });
    expect(await ownerNeedsLink(t.db, store.org.id)).toBe(false);
    const again = await t.app.inject({
      method: 'POST',
      url: '/admin/api/links/complete',
      payload: { token: secretOf(link.url), email: 'x@shop.example', password: 'another passphrase' },
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toMatch(/used or has expired/);
  });

  it('refuses a short password with words to act on, and an expired link', async () => {
    const store = await createStore(t.app, t.db);
    const link = await issueOwnerLink(t.db, store.org.id, t.config.publicUrl, t.clock.now());
    const inspected = await t.app.inject({
      method: 'POST',
      url: '/admin/api/links/inspect',
      payload: { token: secretOf(link.url) },
    });
    expect(inspected.json()).toMatchObject({ purpose: 'owner_setup', email: null });
    const short = await t.app.inject({
      method: 'POST',
      url: '/admin/api/links/complete',
      payload: { token: secretOf(link.url), email: 'o@shop.example', password: 'short' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().fields).toEqual({ password: 'Use at least 12 characters.' });
    t.clock.advance(25 * 3600 * 1000);
    const late = await t.app.inject({
      method: 'POST',
      url: '/admin/api/links/inspect',
      payload: { token: secretOf(link.url) },
    });
    expect(late.statusCode).toBe(410);
  });
});

describe('sessions', () => {
  it('reach the merchant API, need the CSRF token for changes, record who changed what, and end on sign-out', async () => {
    const { owner, session } = await storeWithOwner();
    const cookieSet = await t.app.inject({ method: 'GET', url: '/admin/api/session' });
    expect(cookieSet.statusCode).toBe(401);
    expect((await owner.call('GET', '/admin/api/session')).json()).toMatchObject({
      member: { role: 'owner' },
      csrf_token: session.csrf_token,
    });
    expect((await owner.call('GET', '/checkout/api/merchant/orders')).statusCode).toBe(200);

    const code = { code: 'STAFF10', kind: 'percent', percent_off: 10 };
    const forged = await owner.call('POST', '/checkout/api/merchant/discount-codes', code, false);
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('csrf_token_invalid');
    const made = await owner.call('POST', '/checkout/api/merchant/discount-codes', code);
    expect(made.statusCode, made.body).toBe(201);
    const codeId = String(made.json().id);

    const trail = await owner.call(
      'GET',
      `/checkout/api/merchant/audit-events?object_type=discount_code&object_id=${codeId}`,
    );
    expect(trail.json().data).toEqual([
      expect.objectContaining({
        action: 'POST /checkout/api/merchant/discount-codes',
        status_code: 201,
        object_type: 'discount_code',
        object_id: codeId,
        staff: expect.objectContaining({ email: session.member.email }),
      }),
    ]);

    expect((await owner.call('DELETE', '/admin/api/session')).statusCode).toBe(204);
    expect((await owner.call('GET', '/checkout/api/merchant/orders')).statusCode).toBe(401);
  });

  it('ends after two hours without use', async () => {
    const { owner } = await storeWithOwner();
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await owner.call('GET', '/admin/api/session')).statusCode).toBe(200);
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await owner.call('GET', '/admin/api/session')).statusCode).toBe(200);
    t.clock.advance(SESSION_IDLE_MS + 1000);
    expect((await owner.call('GET', '/admin/api/session')).statusCode).toBe(401);
  });

  it('signs in with email and password, and stops guessing after five failures', async () => {
    const { email } = await storeWithOwner();
    const signIn = (password: string) =>
      t.app.inject({ method: 'POST', url: '/admin/api/session', payload: { email, password } });
    const good = await signIn('a long enough passphrase');
    expect(good.statusCode).toBe(200);
    expect(good.headers['set-cookie']).toMatch(/HttpOnly/);
    expect(good.headers['set-cookie']).toMatch(/SameSite=Strict/);
    for (let i = 0; i < SIGN_IN_LIMITS.failuresPerEmail; i++) {
      const wrong = await signIn(`wrong passphrase ${i}`);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe('The email or password is not right.');
    }
    const stopped = await signIn('a long enough passphrase');
    expect(stopped.statusCode).toBe(429);
    expect(stopped.headers['retry-after']).toBe('900');
    t.clock.advance(SIGN_IN_LIMITS.windowMs + 1000);
    expect((await signIn('a long enough passphrase')).statusCode).toBe(200);
  });
});

describe('the housekeeping', () => {
  it('deletes ended sessions and sign-in failures that no longer count, and keeps the rest', async () => {
    const { email, owner } = await storeWithOwner();
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/admin/api/session',
      payload: { email, password: 'not the passphrase' },
    });
    expect(wrong.statusCode).toBe(401);
    const failures = async () =>
      (
        await t.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM staff_sign_in_failures WHERE email = $1',
          [email],
        )
      ).rows[0]?.n;
    const maintain = () =>
      runMaintenance(t.db, t.clock.now(), { untouchedCartRetentionMs: 24 * 3600 * 1000 });
    // Other tests' sessions may end here too; this failure still counts.
    await maintain();
    expect(await failures()).toBe(1);
    expect((await owner.call('GET', '/admin/api/session')).statusCode).toBe(200);

    t.clock.advance(SIGN_IN_LIMITS.windowMs + 1000);
    await maintain();
    expect(await failures()).toBe(0);
    expect((await owner.call('GET', '/admin/api/session')).statusCode).toBe(200);
    t.clock.advance(SESSION_IDLE_MS + 1000);
    expect((await maintain()).staffRecordsDeleted).toBeGreaterThanOrEqual(1);
    expect((await owner.call('GET', '/admin/api/session')).statusCode).toBe(401);
  });
});

describe('staff', () => {
  it('are invited by email, set a password through its link, cannot see API keys, and are removed', async () => {
    const { owner, store } = await storeWithOwner();
    const staffEmail = `staff-${store.org.id}@shop.example`;
    const invited = await owner.call('POST', '/checkout/api/merchant/staff', {
      email: staffEmail,
      name: 'Sam',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ role: 'staff', active: false });
    expect((await owner.call('POST', '/checkout/api/merchant/staff', { email: staffEmail })).statusCode).toBe(
      409,
    );

    const before = inbox.messages.length;
    const { mailer, handlers } = createEmailJobs(t.config, subscriberLinksOf(t));
    try {
      await createJobWorker(t.db, handlers, { clock: t.clock, logger }).drain();
    } finally {
      mailer.close();
    }
    const invitation = inbox.messages.slice(before).find((m) => m.subject?.startsWith('You are invited'));
    expect(invitation?.to).toMatchObject({ text: staffEmail });
    const url = /Set your password: (\S+)/.exec(invitation?.text ?? '')?.[1] ?? '';
    expect(url).toMatch(/\/admin\/link#/);

    const joined = await t.app.inject({
      method: 'POST',
      url: '/admin/api/links/complete',
      payload: { token: secretOf(url), password: 'staff passphrase 1' },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const staffSession = StaffSessionSchema.parse(joined.json());
    expect(staffSession.member).toMatchObject({ email: staffEmail, role: 'staff', active: true });
    const staff = dashboard(cookieOf(joined), staffSession.csrf_token);
    expect((await staff.call('GET', '/checkout/api/merchant/orders')).statusCode).toBe(200);
    const keys = await staff.call('GET', '/checkout/api/merchant/api-keys');
    expect(keys.statusCode).toBe(403);
    expect(keys.json().message).toBe('Only the store’s owner can do this.');
    expect((await staff.call('GET', '/checkout/api/merchant/webhook-endpoints')).statusCode).toBe(403);
    // The email log shows the invitation, never its link's secret (docs/emails.md, "Records").
    const logged = (await staff.call('GET', '/checkout/api/merchant/emails')).json() as {
      data: { id: number; kind: string }[];
    };
    const invite = logged.data.find((email) => email.kind === 'staff_invite');
    const shown = (await staff.call('GET', `/checkout/api/merchant/emails/${invite?.id}`)).json();
    expect(shown.text).toContain('/admin/link#(hidden');
    expect(`${shown.text} ${shown.html}`).not.toContain(secretOf(url));
    expect(
      (await staff.call('POST', '/checkout/api/merchant/staff', { email: 'x@shop.example' })).statusCode,
    ).toBe(403);

    const removed = await owner.call('DELETE', `/checkout/api/merchant/staff/${staffSession.member.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await staff.call('GET', '/checkout/api/merchant/orders')).statusCode).toBe(401);
    // The owner is the only one: not removable.
    const self = await owner.call('GET', '/admin/api/session');
    const last = await owner.call('DELETE', `/checkout/api/merchant/staff/${self.json().member.id}`);
    expect(last.statusCode).toBe(409);
  });

  it('never reach another store with their session', async () => {
    const first = await storeWithOwner();
    const second = await storeWithOwner();
    const api = merchantClient(t.app, second.store.org.apiKey);
    const code = await api.post('/discount-codes', { code: 'OTHER', kind: 'percent', percent_off: 5 });
    expect(code.status).toBe(201);
    const read = await first.owner.call('GET', `/checkout/api/merchant/discount-codes/${code.body.id}`);
    expect(read.statusCode).toBe(404);
  });
});
