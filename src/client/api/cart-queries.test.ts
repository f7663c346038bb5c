import { describe, expect, it, vi } from 'vitest';
import { cartFixture, US_PROFILES } from '../testing/fixtures.js';
import { previewAnswerFor } from '../testing/fake-shopper-api.js';
import {
  cartKey,
  cartQuery,
  createCartCache,
  QUERY_GC_TIME_MS,
  setCachedCart,
  withPreview,
} from './cart-queries.js';
import type { CheckoutApi } from './checkout-api.js';

describe('cart queries', () => {
  it('keeps cached data 60 seconds after last use', () => {
    expect(QUERY_GC_TIME_MS).toBe(60_000);
    expect(createCartCache().gcTimeMs).toBe(60_000);
  });

  it('caches a new cart answered for a __c__ link under both tokens', async () => {
    const cache = createCartCache();
    const answer = cartFixture({ cart_token: 'NewCartToken1234567890' });
    const api = { getCart: vi.fn(async () => answer) } as unknown as CheckoutApi;
    const query = cartQuery(api, cache, '__c__coffee');
    const data = await cache.fetch(query.key, query.fetch);
    expect(data).toBe(answer);
    expect(cache.getData(cartKey('__c__coffee'))).toBe(answer);
    expect(cache.getData(cartKey('NewCartToken1234567890'))).toBe(answer);
  });

  it('logs a failed cache update to the console instead of failing', () => {
    const cache = createCartCache();
    vi.spyOn(cache, 'setData').mockImplementation(() => {
      throw new Error('cache is broken');
    });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => setCachedCart(cache, 'T', cartFixture())).not.toThrow();
    expect(log).toHaveBeenCalledWith('Could not update the cached cart', expect.any(Error));
    log.mockRestore();
  });

  it("takes a preview's amounts and shipping profiles into the cart", () => {
    const cart = cartFixture();
    const preview = previewAnswerFor(cart, '3', {
      total_tax: 1.49,
      total: 24.49,
      order: { ...cart.order, shipping_profiles: US_PROFILES, shipping_profile_id: '1' },
    });
    const next = withPreview(cart, preview);
    expect(next.total).toBe(24.49);
    expect(next.total_tax).toBe(1.49);
    expect(next.order.shipping_profiles).toHaveLength(2);
    expect(next.cart_token).toBe(cart.cart_token);
  });

  it("keeps the order's own state: a late preview never undoes a decline or a completed order", () => {
    const declined = cartFixture({ order: { order_id: 77, status: 'declined' } });
    const late = previewAnswerFor(cartFixture(), '1', { total: 99 });
    expect(withPreview(declined, late).order).toMatchObject({ order_id: 77, status: 'declined' });
    const complete = cartFixture({ order: { order_id: 78, status: 'complete' } });
    expect(withPreview(complete, late)).toBe(complete);
  });
});
