import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CheckoutLinkPreview } from '../../../contract/checkout-link-preview.js';
import { PreviewBumps, PreviewUpsells } from './checkout-link-preview-funnel.js';

const grinder = {
  offer_id: 7,
  offer_name: 'Grinder',
  item_name: 'Burr grinder',
  item_image: 'https://cdn.example.com/grinder.png',
  text: 'Burr grinder, 40 settings',
  active: true,
  subtotal: 40,
  shipping: 3,
  amount: 43,
  recurring: null,
};

const preview = {
  currency: 'USD',
  bumps_from: 'link',
  bumps: [
    {
      offer_id: 5,
      offer_name: 'Mug',
      item_name: 'Stoneware mug',
      item_image: 'https://cdn.example.com/mug.png',
      text: 'Add a mug for your first cup',
      price: 14,
      is_recurring: false,
      billing_interval_days: null,
      next_price: null,
    },
    {
      offer_id: 6,
      offer_name: 'Club',
      item_name: 'Coffee club',
      item_image: null,
      text: 'Join the club',
      price: 29,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 25,
    },
  ],
  upsells: [
    {
      step: 1,
      offer: grinder,
      downsell: {
        ...grinder,
        offer_id: 8,
        offer_name: 'Scale',
        item_name: 'Coffee scale',
        item_image: null,
        text: '',
        shipping: 0,
        subtotal: 12.5,
        amount: 12.5,
        active: false,
      },
    },
    {
      step: 2,
      offer: {
        ...grinder,
        offer_id: 6,
        item_name: 'Coffee club',
        offer_name: 'Club',
        shipping: 0,
        subtotal: 29,
        amount: 29,
        recurring: { amount: 25, interval_days: 30 },
      },
      downsell: null,
    },
  ],
} as unknown as CheckoutLinkPreview;

describe('the link preview’s bumps', () => {
  it('lists each bump’s text, image and price under a heading', () => {
    render(<PreviewBumps data={preview} />);
    const region = screen.getByRole('region', { name: 'Order bumps' });
    expect(within(region).getByRole('heading', { level: 3, name: 'Order bumps' })).toBeTruthy();
    expect(region.textContent).toContain('This link’s own order bumps');
    const items = within(region).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Add a mug for your first cupStoneware mug (Mug): adds $14.00',
      'Join the clubCoffee club (Club): adds $29.00, then $25.00 every 30 days',
    ]);
    expect(items[0]?.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/mug.png');
  });

  it('says when the store’s default bumps are shown, and when none is', () => {
    const { rerender } = render(<PreviewBumps data={{ ...preview, bumps_from: 'organization' }} />);
    expect(screen.getByRole('region', { name: 'Order bumps' }).textContent).toContain(
      'store’s default bumps',
    );
    rerender(<PreviewBumps data={{ ...preview, bumps: [], bumps_from: 'none' }} />);
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByRole('region', { name: 'Order bumps' }).textContent).toContain(
      'No order bump is shown',
    );
  });
});

describe('the link preview’s offers after the purchase', () => {
  it('lists each step’s offer and downsell as the server priced them', () => {
    render(<PreviewUpsells data={preview} />);
    const region = screen.getByRole('region', { name: 'Offers after the purchase' });
    const steps = within(region).getAllByRole('listitem');
    expect(steps).toHaveLength(2);
    expect(steps[0]?.textContent).toContain('Offer 1 Burr grinder (Grinder)');
    expect(steps[0]?.textContent).toContain('$43.00 ($40.00 and $3.00 shipping), before tax');
    expect(steps[0]?.textContent).toContain('If declined: downsell 1 Coffee scale (Scale)');
    expect(steps[0]?.textContent).toContain('Its offer is not active');
    expect(steps[1]?.textContent).toContain('$29.00, then $25.00 every 30 days, before tax');
    expect(steps[1]?.textContent).toContain('If declined: no downsell.');
  });

  it('says when the link has none', () => {
    render(<PreviewUpsells data={{ ...preview, upsells: [] }} />);
    expect(screen.getByRole('region', { name: 'Offers after the purchase' }).textContent).toContain(
      'None: the order’s confirmation follows the payment.',
    );
  });
});
