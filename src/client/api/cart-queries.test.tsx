import { focusManager, onlineManager, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Cart } from '../../contract/cart.js';
import { cartFixture, US_PROFILES } from '../testing/fixtures.js';
import { previewAnswerFor } from '../testing/fake-shopper-api.js';
import {
  cartKey,
  cartQuery,
  createQueryClient,
  invalidateCart,
  QUERY_GC_TIME_MS,
  setCachedCart,
  updateCachedCart,
  withPreview,
} from './cart-queries.js';
import type { CheckoutApi } from './checkout-api.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const TOKEN = 'Ab3dEf6hIj9kLm2nOp5qRs8t';
const OTHER = 'Zz9yXw8vUt7sRq6pOn5mLk4j';

/** A page's query client with a store answering `getCart`, and readers of the cart as the page reads it. */
function pageCache(getCart: (token: string) => Promise<Cart>) {
  const client = createQueryClient();
  const api = { getCart: vi.fn(getCart) } as unknown as CheckoutApi & { getCart: typeof getCart };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const read = (token = TOKEN) => {
    let renders = 0;
    const hook = renderHook(
      () => {
        renders += 1;
        return useQuery({ ...cartQuery(api, client, token), enabled: true });
      },
      { wrapper },
    );
    return { ...hook, renders: () => renders };
  };
  return { client, api, wrapper, read };
}

afterEach(() => {
  vi.useRealTimers();
  focusManager.setFocused(undefined);
  onlineManager.setOnline(true);
});

describe('the cached cart', () => {
  it('keeps cached data 60 seconds after last use, fresh until invalidated, without retries', () => {
    expect(QUERY_GC_TIME_MS).toBe(60_000);
    expect(createQueryClient().getDefaultOptions().queries).toMatchObject({
      gcTime: 60_000,
      staleTime: Infinity,
      retry: false,
    });
  });

  it('sends one request for readers that ask together', async () => {
    const answer = deferred<Cart>();
    const { client, api, wrapper } = pageCache(() => answer.promise);
    // The page reads the cart under the link's token and under its own: the same key when they are one token.
    const { result } = renderHook(
      () => [
        useQuery({ ...cartQuery(api, client, TOKEN), enabled: true }),
        useQuery({ ...cartQuery(api, client, TOKEN), enabled: true }),
      ],
      { wrapper },
    );
    const third = client.fetchQuery(cartQuery(api, client, TOKEN));
    expect(result.current[0]!.isFetching).toBe(true);
    const cart = cartFixture();
    answer.resolve(cart);
    await waitFor(() => expect(result.current[1]!.data).toBe(cart));
    expect(await third).toBe(cart);
    expect(result.current[0]!.data).toBe(cart);
    expect(api.getCart).toHaveBeenCalledTimes(1);
  });

  it('keeps a cached answer: a new reader fetches nothing until the cart is invalidated', async () => {
    let n = 0;
    const { client, api, read } = pageCache(async () => cartFixture({ total: ++n }));
    const first = read();
    await waitFor(() => expect(first.result.current.data?.total).toBe(1));
    const second = read();
    expect(second.result.current.data?.total).toBe(1);
    expect(api.getCart).toHaveBeenCalledTimes(1);
    await act(() => invalidateCart(client, TOKEN));
    expect(api.getCart).toHaveBeenCalledTimes(2);
    expect(client.getQueryData<Cart>(cartKey(TOKEN))?.total).toBe(2);
    await waitFor(() => expect(first.result.current.data?.total).toBe(2));
  });

  it('fetches an invalidated cart nobody reads when it is next read', async () => {
    const { client, api, read } = pageCache(async () => cartFixture());
    const reader = read();
    await waitFor(() => expect(reader.result.current.data).toBeDefined());
    reader.unmount();
    await invalidateCart(client, TOKEN);
    expect(api.getCart).toHaveBeenCalledTimes(1);
    const next = read();
    await waitFor(() => expect(api.getCart).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(next.result.current.isFetching).toBe(false));
  });

  it('asks again when invalidated during a fetch, and drops the answer that fetch was overtaken by', async () => {
    const answers = [deferred<Cart>(), deferred<Cart>()];
    let call = 0;
    const { client, read } = pageCache(() => answers[call++]!.promise);
    // The page invalidates a cart it shows: there is data, and a fetch may already be running.
    setCachedCart(client, TOKEN, cartFixture({ total: 1 }));
    const reader = read();
    const old = invalidateCart(client, TOKEN);
    const fresh = invalidateCart(client, TOKEN);
    expect(call).toBe(2);
    answers[1]!.resolve(cartFixture({ total: 3 }));
    await act(() => fresh);
    answers[0]!.resolve(cartFixture({ total: 2 }));
    await act(() => old);
    expect(client.getQueryData<Cart>(cartKey(TOKEN))?.total).toBe(3);
    await waitFor(() => expect(reader.result.current.data?.total).toBe(3));
  });

  it('shows a failure once, clears it while fetching again without data, and keeps data on a failed refresh', async () => {
    const failure = new Error('offline');
    const retry = deferred<Cart>();
    const answers: Array<() => Promise<Cart>> = [
      () => Promise.reject(failure),
      () => retry.promise,
      () => Promise.reject(failure),
    ];
    let call = 0;
    const { client, api, read } = pageCache(() => answers[call++]!());
    const reader = read();
    await waitFor(() => expect(reader.result.current.error).toBe(failure));
    expect(reader.result.current).toMatchObject({ data: undefined, isFetching: false });
    // No retries: the page shows the failure and a button to try again.
    expect(api.getCart).toHaveBeenCalledTimes(1);

    act(() => void reader.result.current.refetch());
    await waitFor(() => expect(reader.result.current.isFetching).toBe(true));
    expect(reader.result.current).toMatchObject({ data: undefined, error: null });
    const cart = cartFixture();
    retry.resolve(cart);
    await waitFor(() => expect(reader.result.current.data).toBe(cart));

    await act(() => invalidateCart(client, TOKEN));
    await waitFor(() =>
      expect(reader.result.current).toMatchObject({ data: cart, error: failure, isFetching: false }),
    );
    expect(api.getCart).toHaveBeenCalledTimes(3);
  });

  it('tells readers of a cart about each change written in, and only them', async () => {
    const { client, read } = pageCache(async (token) => cartFixture({ cart_token: token }));
    const reader = read(TOKEN);
    const other = read(OTHER);
    await waitFor(() => expect(reader.result.current.data).toBeDefined());
    await waitFor(() => expect(other.result.current.data).toBeDefined());
    const otherRenders = other.renders();
    act(() => setCachedCart(client, TOKEN, cartFixture({ total: 5 })));
    await waitFor(() => expect(reader.result.current.data?.total).toBe(5));
    act(() => updateCachedCart(client, TOKEN, (cart) => ({ ...cart, total: cart.total + 1 })));
    await waitFor(() => expect(reader.result.current.data?.total).toBe(6));
    expect(other.renders()).toBe(otherRenders);
    expect(other.result.current.data?.total).not.toBe(6);
  });

  it('updates nothing when there is no cached cart', () => {
    const client = createQueryClient();
    const update = vi.fn((cart: Cart) => cart);
    updateCachedCart(client, TOKEN, update);
    expect(update).not.toHaveBeenCalled();
    expect(client.getQueryData(cartKey(TOKEN))).toBeUndefined();
  });

  it('keeps a cart 60 seconds after its last reader left, then forgets it', () => {
    vi.useFakeTimers();
    const { client, read } = pageCache(() => new Promise(() => undefined));
    const cart = cartFixture();
    setCachedCart(client, TOKEN, cart);
    const reader = read();
    expect(reader.result.current.data).toBe(cart);
    act(() => void vi.advanceTimersByTime(120_000));
    expect(client.getQueryData(cartKey(TOKEN))).toBe(cart);
    reader.unmount();
    act(() => void vi.advanceTimersByTime(59_999));
    expect(client.getQueryData(cartKey(TOKEN))).toBe(cart);
    act(() => void vi.advanceTimersByTime(1));
    expect(client.getQueryData(cartKey(TOKEN))).toBeUndefined();
  });

  it('forgets a cart written for a token nobody reads after 60 seconds', () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    setCachedCart(client, TOKEN, cartFixture());
    vi.advanceTimersByTime(59_999);
    expect(client.getQueryData(cartKey(TOKEN))).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(client.getQueryData(cartKey(TOKEN))).toBeUndefined();
  });

  it('keeps the cached objects when an equal answer comes in', async () => {
    const { client, read } = pageCache(async () => structuredClone(first));
    const first = cartFixture();
    setCachedCart(client, TOKEN, first);
    setCachedCart(client, TOKEN, structuredClone(first));
    expect(client.getQueryData(cartKey(TOKEN))).toBe(first);
    // A fetched answer equal to the cached one changes no reference either.
    const reader = read();
    await act(() => invalidateCart(client, TOKEN));
    expect(reader.result.current.data).toBe(first);
    setCachedCart(client, TOKEN, { ...structuredClone(first), total: first.total + 1 });
    const next = client.getQueryData<Cart>(cartKey(TOKEN));
    expect(next).not.toBe(first);
    expect(next?.order).toBe(first.order);
    expect(next?.offers).toBe(first.offers);
  });

  it('fetches nothing on focus or reconnect, and asks the store even when the browser says it is offline', async () => {
    const { client, api, read } = pageCache(async () => cartFixture());
    const reader = read();
    await waitFor(() => expect(reader.result.current.data).toBeDefined());
    // Even stale data is not fetched again by focus or reconnect.
    await client.invalidateQueries({ queryKey: cartKey(TOKEN), refetchType: 'none' });
    await act(async () => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
      onlineManager.setOnline(false);
      onlineManager.setOnline(true);
      await new Promise((settle) => setTimeout(settle, 10));
    });
    expect(api.getCart).toHaveBeenCalledTimes(1);
    // The HTTP client says when the store cannot be reached: a request is not held back meanwhile.
    act(() => onlineManager.setOnline(false));
    await act(() => invalidateCart(client, TOKEN));
    expect(api.getCart).toHaveBeenCalledTimes(2);
  });

  it('caches a new cart answered for a __c__ link under both tokens', async () => {
    const answer = cartFixture({ cart_token: 'NewCartToken1234567890' });
    const { client, api, read } = pageCache(async () => answer);
    const link = read('__c__coffee');
    await waitFor(() => expect(link.result.current.data).toBe(answer));
    expect(client.getQueryData(cartKey('__c__coffee'))).toBe(answer);
    expect(client.getQueryData(cartKey('NewCartToken1234567890'))).toBe(answer);
    // The page then reads the cart under its own token: no second request.
    const own = read('NewCartToken1234567890');
    expect(own.result.current.data).toBe(answer);
    expect(api.getCart).toHaveBeenCalledTimes(1);
  });

  it('logs a failed cache update to the console instead of failing', () => {
    const client = createQueryClient();
    vi.spyOn(client, 'setQueryData').mockImplementation(() => {
      throw new Error('cache is broken');
    });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => setCachedCart(client, TOKEN, cartFixture())).not.toThrow();
    expect(() => updateCachedCart(client, TOKEN, (cart) => cart)).not.toThrow();
    expect(log).toHaveBeenCalledTimes(2);
    expect(log).toHaveBeenCalledWith('Could not update the cached cart', expect.any(Error));
    log.mockRestore();
  });
});

describe('cart answers', () => {
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
