import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIFT_ALREADY_CLAIMED_MESSAGE } from '../../../domain/link-errors.js';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import { cartFixture, offerFixture } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/checkout/__g__GiftClaimCode1234567890123456');
});

const claimCart = (giftFrom: { name: string; message: string }) =>
  cartFixture({
    offers: [offerFixture({ id: 31, order_offer_price: 0, subtotal_offer: 0, total: 0 })],
    total: 0,
    subtotal: 0,
    editable: false,
    order: { is_gift_claim: true, gift_from: giftFrom },
  });

// A test that ends on an error view must not end while the page's chunks (loaded beside the handshake) still import.
afterEach(async () => {
  await Promise.all([
    import('../checkout-view.js'),
    import('../shipping/shipping-section.js'),
    import('../billing/billing-section.js'),
  ]);
});

describe("a gift recipient's claim page", () => {
  it("shows who the gift is from and the giver's message", async () => {
    renderCheckout({ cart: claimCart({ name: 'Ada Lovelace', message: 'Happy birthday, Grace!' }) });
    const note = await screen.findByRole('region', { name: 'A gift from Ada Lovelace' });
    expect(note.textContent).toContain('Happy birthday, Grace!');
  });

  it('still greets the recipient when the giver left no name or message', async () => {
    renderCheckout({ cart: claimCart({ name: '', message: '' }) });
    await screen.findByRole('region', { name: 'A gift for you' });
  });

  it('says the gift was already claimed, not that the link is broken', async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('GET', /\/carts\/[^/]+$/, () => ({
      status: 404,
      body: { status: 404, code: 'gift_already_claimed', message: GIFT_ALREADY_CLAIMED_MESSAGE },
    }));
    renderCheckout({ api, routeToken: '__g__GiftClaimCode1234567890123456' });
    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('This gift has already been claimed');
    expect(alert.textContent).toContain(GIFT_ALREADY_CLAIMED_MESSAGE);
    expect(alert.textContent).not.toMatch(/not valid/);
  });
});
