import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverEmails } from '../helpers/server-jobs.js';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { systemClock } from '../../src/server/platform/clock.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import { DECLINING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { testConfig } from '../helpers/test-app.js';
import type { CheckoutPage } from './checkout-page.js';
import { useShopperBrowser } from './shopper-browser.js';

// The subscriber's self-service page (docs/subscriptions.md, "Self-service") in Debian's Chromium against the built
// server: the link of the welcome email (or of a failed payment's, or one the merchant makes), received through a real
// SMTP server, the subscription as the page shows it, pause, resume, a new card typed into the
// test processor's frame, and a cancel behind its confirmation; axe finds nothing at 1400 and at 375 px.

const session = useShopperBrowser();
let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await startSmtpInbox();
});

afterAll(async () => {
  await inbox?.close();
});

/** The self-service link of the one email sent now whose subject matches. */
async function linkInNextEmail(subject: RegExp): Promise<string> {
  const sent = (await deliverEmails(session.server, inbox)).filter((mail) =>
    subject.test(mail.subject ?? ''),
  );
  expect(sent.map((mail) => mail.subject)).toHaveLength(1);
  const url = /(http:\/\/127\.0\.0\.1:\d+\/checkout\/manage\/[\w.-]+)/.exec(sent[0]?.text ?? '')?.[1];
  expect(url, sent[0]?.text).toBeDefined();
  return url ?? '';
}

/** A subscriber of the demo store's coffee club, through the shopper API of the same server. */
async function subscribe(): Promise<number> {
  const { server } = session;
  const cart = await server.newCart([{ item_id: 'CLUB-2' }]);
  const shopper = await shopperSession(server.app, 'demo');
  await shopper.get(`carts/${cart}/preview`, { ship_country: 'US', ship_state: 'TX' });
  const placed = await shopper.post('orders', orderBody(cart, { subscription_terms_accepted: true }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const order = await server.merchant('GET', `/orders/${placed.body.order.order_id}`);
  return order.body.subscription_ids[0] as number;
}

async function manageLink(id: number): Promise<string> {
  const link = await session.server.merchant('POST', `/subscriptions/${id}/manage-link`, {});
  expect(link.status).toBe(200);
  return link.body.url as string;
}

async function open(page: CheckoutPage, url: string): Promise<void> {
  await page.page.goto(url);
  await page.page.getByRole('heading', { name: 'Your subscription' }).waitFor();
}

/** Clicks a button and waits for the result it announces, which takes the focus. */
async function act(page: CheckoutPage, button: string | RegExp, expected: RegExp): Promise<void> {
  await page.button(button).click();
  const result = page.page.locator('[data-result]');
  await result.filter({ hasText: expected }).waitFor();
  expect(await result.evaluate((element) => element === (element as any).ownerDocument.activeElement)).toBe(
    true,
  );
  await expect
    .poll(() => page.page.locator('[role="status"][aria-live="polite"]').innerText())
    .toMatch(expected);
}

const summary = (violations: { id: string; nodes: { target: string[] }[] }[]) =>
  violations.map(
    (violation) => `${violation.id} ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

describe('the self-service page', () => {
  it('shows the subscription and lets the subscriber pause, resume, update the card and cancel', async () => {
    const id = await subscribe();
    const welcome = await linkInNextEmail(/^Your (?!.*( is |renews on)).* subscription at /);
    const page = await session.shopper({ width: 1400, height: 900 });
    await open(page, welcome);
    await page.page.getByRole('heading', { name: 'Coffee club subscription' }).waitFor();
    expect(await page.page.locator('.manage__facts').innerText()).toMatch(/\$27\.06 every month/);
    expect(summary(await page.axe())).toEqual([]);

    await act(page, 'Pause subscription', /is paused/);
    expect(await page.page.locator('.manage__status').innerText()).toMatch(/^Paused/);
    expect((await session.server.merchant('GET', `/subscriptions/${id}`)).body).toMatchObject({
      status: 'paused',
      changed_by: 'subscriber',
    });
    await act(page, 'Resume subscription', /active again/);

    await page.button('Update card').click();
    await expect
      .poll(() => page.page.evaluate(() => (globalThis as any).document.activeElement?.textContent))
      .toBe('Update your card');
    await page.cardReady();
    await page.fillCard('5555 5555 5555 4444', '11 / 31', '123');
    expect(summary(await page.axe())).toEqual([]);
    await act(page, 'Save card', /new card is saved: Mastercard ending in 4444/);
    expect((await session.server.merchant('GET', `/subscriptions/${id}`)).body.payment_method).toMatchObject({
      card_brand: 'mastercard',
      card_last4: '4444',
    });

    await page.button('Cancel subscription').click();
    const question = page.page.getByRole('heading', { name: 'Cancel your subscription?' });
    await question.waitFor();
    expect(
      await question.evaluate((element) => element === (element as any).ownerDocument.activeElement),
    ).toBe(true);
    // Thinking better of it keeps everything.
    await page.button('No, keep it').click();
    await page.button('Cancel subscription').click();
    expect(summary(await page.axe())).toEqual([]);
    await act(page, 'Yes, cancel my subscription', /is canceled\. Ends on/);
    const cancelled = (await session.server.merchant('GET', `/subscriptions/${id}`)).body;
    expect(cancelled).toMatchObject({ status: 'active', changed_by: 'subscriber' });
    expect(cancelled.cancel_at).not.toBeNull();
    expect(await page.button('Keep my subscription').count()).toBe(1);
    expect(summary(await page.axe())).toEqual([]);
    // Each change was confirmed by email.
    const confirmations = (await deliverEmails(session.server, inbox)).map((mail) => mail.subject ?? '');
    expect(confirmations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/subscription at .* is paused$/),
        expect.stringMatching(/subscription at .* is active again$/),
        expect.stringMatching(/subscription at .* was changed$/),
        expect.stringMatching(/subscription at .* ends on /),
      ]),
    );
  });

  it('pays a failed renewal with a card updated on the page at the next retry', async () => {
    const { server } = session;
    const id = await subscribe();
    const db = server.database.db;
    // The stored card goes bad and the renewal is due: the rebill run declines it and schedules a retry.
    await db.query(
      `UPDATE payment_methods SET gateway_token = $2
        WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)`,
      [id, `${DECLINING_TOKEN_PREFIX}${id}`],
    );
    await db.query(`UPDATE subscriptions SET next_charge_at = now() - interval '1 minute' WHERE id = $1`, [
      id,
    ]);
    const config = testConfig({ publicUrl: server.baseUrl });
    const rebill = () =>
      runRebills({
        db,
        gateways: createPaymentGateways(config, { db, clock: systemClock }),
        clock: systemClock,
      });
    expect((await rebill()).declined).toBeGreaterThanOrEqual(1);
    expect((await server.merchant('GET', `/subscriptions/${id}`)).body).toMatchObject({
      retry_count: 1,
      cycle: 1,
    });

    // The failed payment's email carries the link to update the card.
    const update = await linkInNextEmail(/^Action needed: /);
    const page = await session.shopper({ width: 1400, height: 900 });
    await open(page, update);
    expect(await page.page.locator('.manage__status').innerText()).toMatch(/last payment did not go through/);
    expect(await page.page.getByRole('cell', { name: 'Declined' }).count()).toBe(1);
    await page.button('Update card').click();
    await page.cardReady();
    await page.fillCard('4111 1111 1111 1111', '10 / 32', '123');
    await act(page, 'Save card', /new card is saved: Visa ending in 1111/);
    expect(
      new Date((await server.merchant('GET', `/subscriptions/${id}`)).body.next_charge_at).getTime(),
    ).toBeLessThanOrEqual(Date.now());

    // The next run retries with the new card, and it goes through.
    expect((await rebill()).approved).toBeGreaterThanOrEqual(1);
    const renewed = (await server.merchant('GET', `/subscriptions/${id}`)).body;
    expect(renewed).toMatchObject({ status: 'active', cycle: 2, retry_count: 0 });
    expect(renewed.charges.map((charge: { status: string }) => charge.status)).toEqual([
      'declined',
      'approved',
    ]);
    await page.page.reload();
    await page.page.getByRole('cell', { name: 'Paid' }).waitFor();
    expect(summary(await page.axe())).toEqual([]);
  });

  it("saves a card whose bank asks for 3-D Secure once the subscriber passed the bank's challenge", async () => {
    const id = await subscribe();
    const page = await session.shopper({ width: 1400, height: 900 });
    await open(page, await manageLink(id));
    await page.button('Update card').click();
    await page.cardReady();
    await page.fillCard('4000 0027 6000 3184', '10 / 32', '123');
    await page.button('Save card').click();
    const challenge = await page.challengeFrame();
    // Nothing is saved while the bank waits.
    expect(
      (await session.server.merchant('GET', `/subscriptions/${id}`)).body.payment_method,
    ).not.toMatchObject({
      card_last4: '3184',
    });
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    await page.page.locator('[data-result]', { hasText: /new card is saved: Visa ending in 3184/ }).waitFor();
    expect((await session.server.merchant('GET', `/subscriptions/${id}`)).body.payment_method).toMatchObject({
      card_brand: 'visa',
      card_last4: '3184',
    });
    expect(summary(await page.axe())).toEqual([]);
  });

  it('works with the keyboard on a 375 px phone, with nothing wider than the screen', async () => {
    const id = await subscribe();
    const page = await session.shopper({ width: 375, height: 800 });
    await open(page, await manageLink(id));
    expect(summary(await page.axe())).toEqual([]);
    const width = await page.page.evaluate(
      () => (globalThis as any).document.documentElement.scrollWidth as number,
    );
    expect(width).toBeLessThanOrEqual(375);
    // Tab to "Pause subscription" and press Enter.
    for (let step = 0; step < 30; step++) {
      await page.page.keyboard.press('Tab');
      const name = await page.page.evaluate(
        () => ((globalThis as any).document.activeElement?.textContent ?? '') as string,
      );
      if (name === 'Pause subscription') break;
    }
    await page.page.keyboard.press('Enter');
    await page.page.locator('[data-result]', { hasText: /is paused/ }).waitFor();
  });

  it('says plainly that a bad link does not work and to ask the store for a new one', async () => {
    const page = await session.shopper({ width: 1400, height: 900 });
    await page.page.goto(`${session.server.baseUrl}/checkout/manage/not-a-real-link`);
    const alert = page.page.getByRole('alert');
    await alert.filter({ hasText: 'Ask the store for a new link' }).waitFor();
    expect(await page.page.getByRole('heading', { name: 'This link does not work' }).count()).toBe(1);
    expect(await page.page.getByText(/email me/i).count()).toBe(0);
    expect(summary(await page.axe())).toEqual([]);
  });
});
