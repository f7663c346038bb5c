import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutLink, Offer } from '../../../contract/merchant.js';
import { LiveRegionProvider } from '../../ui/live-region.js';
import { CheckoutLinkScreen } from './checkout-link-screen.js';

function offer(id: number, name: string, saveTerms: Offer['subscribe_and_save']): Offer {
  return {
    id,
    offer_name: name,
    offer_title: name,
    item_id: `item-${id}`,
    item_name: name,
    item_image: null,
    item_category: '',
    item_options: [],
    override_initial_item_id: null,
    override_initial_item_name: null,
    price: 19.95,
    is_recurring: false,
    billing_interval_days: null,
    next_price: null,
    trial_days: null,
    discounted_cycles: null,
    discounted_price: null,
    total_cycles: null,
    prepaid_cycles: null,
    prepaid_renewal: null,
    billing_plan_description: null,
    is_giftable: false,
    is_taxable: true,
    requires_shipping: true,
    shipping_price: 0,
    digital_access: null,
    subscribe_and_save: saveTerms,
    bump_text: null,
    translations: {},
    active: true,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
  };
}

// Other suites share the machine's cores: limits for a hang, not timing assertions (as render-checkout.tsx sets).
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const OFFERS = [offer(5, 'Mug', null), offer(6, 'Tea', { interval_days: 30, percent_off: 10 })];

const made: CheckoutLink = {
  id: 3,
  public_id: 'tea',
  cart_token: '__c__tea',
  checkout_url: 'http://shop.example/checkout/__c__tea',
  name: '',
  offers: [{ offer_id: 6, quantity: 1, is_gift: false, subscribe: true }],
  bump_offer_ids: [],
  discount_code: null,
  active: true,
  expires_at: null,
  upsells: [],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

/** The dashboard's API as the form meets it: the offers to choose from, and the link it makes. */
function stubApi() {
  const sent: unknown[] = [];
  const fetchStub = vi.fn(async (url: string, init: RequestInit) => {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (init.method === 'GET' && url.includes('/offers')) return json(200, { data: OFFERS, has_more: false });
    if (init.method === 'POST' && url.endsWith('/checkout-links')) {
      sent.push(JSON.parse(String(init.body)));
      return json(201, made);
    }
    return json(404, { message: 'Not here.' });
  });
  vi.stubGlobal('fetch', fetchStub);
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderNewLink() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LiveRegionProvider>
        <CheckoutLinkScreen id={null} />
      </LiveRegionProvider>
    </QueryClientProvider>,
  );
}

describe("the checkout link form's subscribe-and-save box", () => {
  it('shows only for an offer that allows it, names its terms, and sends the preset', async () => {
    const sent = stubApi();
    const user = userEvent.setup();
    renderNewLink();
    const offerSelect = await screen.findByRole('combobox', { name: /Line 1 offer/ });
    await screen.findByRole('option', { name: 'Tea (Tea)' });
    const box = () => screen.queryByRole('checkbox', { name: /Line 1: Subscribe and save/ });

    await user.selectOptions(offerSelect, '5');
    expect(box()).toBeNull();

    await user.selectOptions(offerSelect, '6');
    expect(
      screen.getByRole('checkbox', { name: 'Line 1: Subscribe and save: every 30 days at 10 % off' }),
    ).toBe(box());
    expect((box() as HTMLInputElement).checked).toBe(false);
    await user.click(box() as HTMLInputElement);
    expect((box() as HTMLInputElement).checked).toBe(true);

    // Another offer without it drops the preset rather than sending what the server refuses.
    await user.selectOptions(offerSelect, '5');
    expect(box()).toBeNull();
    await user.selectOptions(offerSelect, '6');
    expect((box() as HTMLInputElement).checked).toBe(false);
    await user.click(box() as HTMLInputElement);

    await user.click(screen.getByRole('button', { name: 'Make the link' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      offers: [{ offer_id: 6, quantity: 1, is_gift: false, subscribe: true }],
    });
  });
});
