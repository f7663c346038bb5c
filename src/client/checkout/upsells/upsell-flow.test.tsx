import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UpsellState } from '../../../contract/upsell.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import type { RequestOptions } from '../../api/http-client.js';
import { completedOrder } from '../../testing/fake-shopper-api.js';
import { cartFixture, FILLED_CUSTOMER } from '../../testing/fixtures.js';
import { LiveRegionProvider } from '../../ui/live-region.js';
import ConfirmationView from '../confirmation/confirmation-view.js';

const OFFER: UpsellState = {
  order_id: 77,
  currency: 'USD',
  offer: {
    step: 1,
    is_downsell: false,
    offer_id: 9,
    name: 'Burr grinder',
    text: 'Grinds for every brew.',
    image: 'https://cdn.example.com/grinder.png',
    subtotal: 40,
    shipping: 5,
    tax: 3.3,
    amount: 48.3,
    recurring: null,
    expires_at: '2026-11-15T10:10:00.000Z',
    seconds_left: 600,
  },
  linked_orders: [],
};

const DONE: UpsellState = {
  ...OFFER,
  offer: null,
  linked_orders: [
    { order_id: 78, total: 48.3, lines: [{ item_name: 'Burr grinder', quantity: 1, total: 48.3 }] },
  ],
};

/** The shopper API as the upsell chunk calls it: each request recorded, the accept answered once released. */
function fakeApi() {
  const sent: { method: string; path: string; key: string | undefined }[] = [];
  let release: () => void = () => undefined;
  const accepted = new Promise<void>((resolve) => (release = resolve));
  const request = async (options: RequestOptions<unknown>) => {
    sent.push({ method: options.method, path: options.path, key: options.headers?.['Idempotency-Key'] });
    if (options.method === 'GET') return OFFER;
    await accepted;
    return DONE;
  };
  return { api: { http: { request } } as unknown as CheckoutApi, sent, release: () => release() };
}

describe('the offers after the order', () => {
  it('shows the offer focused, sends one accept for a double click, then lists both orders', async () => {
    const user = userEvent.setup();
    const fake = fakeApi();
    const base = completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 77);
    const cart = { ...base, order: { ...base.order, has_upsells: true } };
    render(
      <LiveRegionProvider>
        <ConfirmationView cart={cart} api={fake.api} />
      </LiveRegionProvider>,
    );
    const heading = await screen.findByRole('heading', { name: 'Burr grinder' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    screen.getByRole('img', { name: 'Burr grinder' });
    screen.getByText(
      /charged today to the card you just used \(\$40\.00 item, \$5\.00 shipping, \$3\.30 tax\)/,
    );
    screen.getByText('10:00');

    await user.dblClick(screen.getByRole('button', { name: 'Yes, add it' }));
    fake.release();
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    const posts = fake.sent.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.path).toMatch(/\/orders\/77\/upsell\/accept$/);
    expect(posts[0]?.key).toMatch(/\S{16,}/);
    screen.getByText(/Order #78: Burr grinder\s*, \$48\.30 charged to the same card\./);
    screen.getByText('$66.30');
  });

  it('shows the confirmation alone for an order without upsells', () => {
    const fake = fakeApi();
    render(
      <ConfirmationView
        cart={completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 77)}
        api={fake.api}
      />,
    );
    screen.getByRole('heading', { name: 'Thank you, Ada!' });
    expect(fake.sent).toEqual([]);
  });
});
