import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../contract/merchant.js';
import { formatDate } from '../kit/format.js';
import { SubscriptionPlan } from './subscription-plan.js';

const base = {
  id: 41,
  status: 'active',
  cancel_at: null,
  currency: 'USD',
  interval_days: 30,
  cycle: 1,
  cycle_amount: 92.93,
  next_charge_at: '2026-02-01T12:00:00.000Z',
  next_cycle: null,
  plan_remaining: null,
  end_reason: null,
  billing_plan: null,
  prepaid: null,
} as unknown as Subscription;

/** The definition list's terms and their values, as a person reads them. */
function facts(region: HTMLElement): Record<string, string> {
  const terms = within(region).getAllByRole('term');
  return Object.fromEntries(
    terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']),
  );
}

describe('a subscription’s plan', () => {
  it('shows a prepaid plan’s cycles paid and shipped, its end and the next period’s charge', () => {
    const subscription = {
      ...base,
      billing_plan: {
        phases: [
          { cycles: 1, amount: 99.39, interval_days: 90 },
          { cycles: null, amount: 92.93, interval_days: 90 },
        ],
        total_cycles: null,
        has_special_cycles: true,
        description: '3 months for $99.39, shipped monthly; renews every 3 months at $92.93',
        prepaid: { cycles: 3, renewal: 'renew', interval_days: 30 },
      },
      prepaid: {
        cycles: 3,
        renewal: 'renew',
        shipped_cycle: 2,
        next: { kind: 'fulfilment', cycle: 3, amount: 0, at: '2026-03-03T12:00:00.000Z' },
      },
    } as Subscription;
    render(<SubscriptionPlan subscription={subscription} />);
    const region = screen.getByRole('region', { name: 'Prepaid plan' });
    expect(facts(region)).toEqual({
      'Each payment': '3 cycles, one shipped every 30 days',
      'Cycles paid for': '3 (period 1)',
      'Cycles shipped': '2 (cycle 2 of 3 of period 1)',
      'Next delivery': `Cycle 3, ${formatDate('2026-03-03T12:00:00.000Z')}, as a $0 fulfilment order`,
      'At the end of the period': 'Renews: the next 3 cycles are charged at once',
      'Next charge': `${formatDate('2026-04-02T12:00:00.000Z')}, $92.93 for cycles 4 to 6`,
    });
  });

  it('says a prepaid plan that ends charges nothing more', () => {
    const subscription = {
      ...base,
      prepaid: { cycles: 3, renewal: 'end', shipped_cycle: 3, next: null },
    } as unknown as Subscription;
    render(<SubscriptionPlan subscription={subscription} />);
    expect(facts(screen.getByRole('region', { name: 'Prepaid plan' }))).toMatchObject({
      'At the end of the period': 'Ends after cycle 3: nothing more is charged',
      'Next charge': 'None: the plan ends with this period',
    });
  });

  it('shows where a plan priced by cycle is and what its next charge will be', () => {
    const subscription = {
      ...base,
      cycle: 2,
      billing_plan: {
        phases: [
          { cycles: 1, amount: 1, interval_days: 14 },
          { cycles: 2, amount: 19.99, interval_days: 30 },
          { cycles: 9, amount: 29.99, interval_days: 30 },
        ],
        total_cycles: 12,
        has_special_cycles: true,
        description: '$1.00 today for 14 days, then $19.99 every 30 days for 2 payments, then $29.99',
        prepaid: null,
      },
      next_cycle: { cycle: 3, amount: 19.99, interval_days: 30, is_last: false },
      plan_remaining: '1 more payment of $19.99, then 9 of $29.99',
    } as Subscription;
    render(<SubscriptionPlan subscription={subscription} />);
    expect(facts(screen.getByRole('region', { name: 'Prices by cycle' }))).toEqual({
      Plan: '$1.00 today for 14 days, then $19.99 every 30 days for 2 payments, then $29.99',
      'Cycle now': '2 of 12, discounted cycle 1 of 2',
      'Next charge': 'Cycle 3 (discounted cycle 2 of 2): $19.99',
      'Still to charge': '1 more payment of $19.99, then 9 of $29.99',
    });
  });

  it('shows nothing for a plain plan', () => {
    const { container } = render(<SubscriptionPlan subscription={base} />);
    expect(container.textContent).toBe('');
  });
});
