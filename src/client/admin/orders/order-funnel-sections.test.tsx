import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../../contract/merchant.js';
import { FulfilmentCard, UpsellCard } from './order-funnel-sections.js';

const plain = {
  order_id: 41,
  currency: 'USD',
  kind: 'order',
  fulfilment_of_subscription_id: null,
  fulfilment_of_order_id: null,
  fulfilment_cycle: null,
  parent_order_id: null,
  linked_orders: [],
  upsell_steps: [],
} as unknown as OrderDetail;

const fulfilment = {
  ...plain,
  order_id: 55,
  kind: 'prepaid_fulfilment',
  fulfilment_of_subscription_id: 12,
  fulfilment_of_order_id: 40,
  fulfilment_cycle: 2,
} as OrderDetail;

describe('a prepaid fulfilment order’s card', () => {
  it('names its cycle, subscription and paying order, with links, under a heading', () => {
    render(<FulfilmentCard order={fulfilment} cyclesPerPeriod={3} />);
    const card = screen.getByRole('region', { name: 'Prepaid fulfilment' });
    expect(within(card).getByRole('heading', { level: 2, name: 'Prepaid fulfilment' })).toBeTruthy();
    expect(card.textContent).toContain(
      'Prepaid fulfilment — cycle 2 of 3 of subscription 12, paid by order 40.',
    );
    expect(card.textContent).toContain(
      'Nothing is charged for this order: order 40 paid once for all 3 cycles',
    );
    expect(within(card).getByRole('link', { name: 'Subscription 12' }).getAttribute('href')).toBe(
      '/admin/subscriptions/12',
    );
    expect(within(card).getByRole('link', { name: 'Order 40' }).getAttribute('href')).toBe(
      '/admin/orders/40',
    );
  });

  it('is not shown for an ordinary order', () => {
    const { container } = render(<FulfilmentCard order={plain} cyclesPerPeriod={null} />);
    expect(container.textContent).toBe('');
  });
});

describe('an order’s upsells card', () => {
  it('links an upsell’s linked order to its parent', () => {
    render(<UpsellCard order={{ ...plain, order_id: 42, parent_order_id: 41 }} />);
    const card = screen.getByRole('region', { name: 'Upsells' });
    expect(within(card).getByRole('link', { name: 'Order 41' }).getAttribute('href')).toBe(
      '/admin/orders/41',
    );
    expect(card.textContent).toMatch(/An offer accepted after Order 41/);
  });

  it('lists the parent’s linked orders and each offer shown after it', () => {
    const parent = {
      ...plain,
      linked_orders: [{ order_id: 42, status: 'complete', total: 48.3 }],
      upsell_steps: [
        {
          step: 1,
          position: 1,
          is_downsell: false,
          offer_id: 7,
          status: 'declined',
          offered_at: '2026-11-26T09:00:00Z',
          expires_at: '2026-11-26T09:10:00Z',
          decided_at: '2026-11-26T09:01:00Z',
          linked_order_id: null,
        },
        {
          step: 1,
          position: 2,
          is_downsell: true,
          offer_id: 8,
          status: 'accepted',
          offered_at: '2026-11-26T09:01:00Z',
          expires_at: '2026-11-26T09:11:00Z',
          decided_at: '2026-11-26T09:02:00Z',
          linked_order_id: 42,
        },
      ],
    } as OrderDetail;
    render(<UpsellCard order={parent} />);
    const card = screen.getByRole('region', { name: 'Upsells' });
    expect(
      within(card).getByRole('heading', { level: 3, name: 'Orders made by accepted offers' }),
    ).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Order 42' }).closest('li')?.textContent).toBe(
      'Order 42: Complete, $48.30',
    );
    const rows = within(card).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^1Offer 7Declined.*—$/),
      expect.stringMatching(/^1 \(downsell\)Offer 8Accepted.*Order 42$/),
    ]);
  });

  it('is not shown for an order with no upsell', () => {
    const { container } = render(<UpsellCard order={plain} />);
    expect(container.textContent).toBe('');
  });
});
