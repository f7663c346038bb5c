import { describe, expect, it } from 'vitest';
import { fallbackI18n } from '../i18n/fallback-i18n.js';
import type { Translate } from '../i18n/use-t.js';
import { describePageFailure as describeWith, type PageFailureFacts } from './page-failure.js';

// In English, as the page's words read without a provider (tests/helpers/client-setup.ts).
const t: Translate = (key, values) => fallbackI18n()?._(key, values) ?? key;
const describePageFailure = (facts: PageFailureFacts) => describeWith(facts, t);

const order = (
  status: 'open' | 'pending' | 'declined' | 'awaiting_payment' | 'complete',
  id: number | null = 4242,
) => ({
  order_id: id,
  status,
  is_test: false,
});

describe('describePageFailure', () => {
  it('names a placed and paid order with its number, and never says nothing was charged', () => {
    const failure = describePageFailure({ order: order('complete'), total: 54.12, orderRequested: true });
    expect(failure.title).toBe('Your order is placed');
    expect(failure.message).toContain('Your order #4242 was placed and paid.');
    expect(failure.message).not.toMatch(/nothing was charged/i);
    expect(failure.action).toBe('reload');
  });

  it('says a free order was placed, and a test order charged nothing', () => {
    expect(
      describePageFailure({ order: order('complete'), total: 0, orderRequested: false }).message,
    ).toMatch(/^Your order #4242 was placed\. /);
    expect(
      describePageFailure({
        order: { ...order('complete'), is_test: true },
        total: 10,
        orderRequested: false,
      }).message,
    ).toContain('placed as a test order (nothing was charged)');
  });

  it('does not say nothing was charged once an order request has left or a payment is under way', () => {
    for (const facts of [
      { order: order('open', null), total: 10, orderRequested: true },
      { order: order('pending'), total: 10, orderRequested: false },
      { order: order('awaiting_payment'), total: 10, orderRequested: false },
    ]) {
      const failure = describePageFailure(facts);
      expect(failure.message).not.toMatch(/nothing was charged/i);
      expect(failure.message).toMatch(/Reload the page/);
    }
  });

  it('says nothing was charged before any order request (or after a decline), and offers to try again', () => {
    for (const facts of [
      { order: null, total: 0, orderRequested: false },
      { order: order('open', null), total: 10, orderRequested: false },
      { order: order('declined'), total: 10, orderRequested: false },
    ]) {
      expect(describePageFailure(facts)).toMatchObject({
        message: expect.stringContaining('nothing was charged'),
        action: 'retry',
      });
    }
  });
});
