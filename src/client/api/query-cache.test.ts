import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryCache, replaceEqualDeep } from './query-cache.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('query cache', () => {
  it('sends one request for readers that ask together', async () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const answer = deferred<{ n: number }>();
    const fetcher = vi.fn(() => answer.promise);
    const one = cache.ensure('k', fetcher);
    const two = cache.ensure('k', fetcher);
    const three = cache.fetch('k', fetcher);
    expect(cache.getSnapshot('k').isFetching).toBe(true);
    answer.resolve({ n: 1 });
    await Promise.all([one, two, three]);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(cache.getSnapshot('k')).toEqual({ data: { n: 1 }, error: null, isFetching: false });
  });

  it('keeps a cached answer: ensure does not fetch again until it is invalidated', async () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    let n = 0;
    const fetcher = vi.fn(async () => ({ n: ++n }));
    const stop = cache.subscribe('k', () => undefined);
    await cache.ensure('k', fetcher);
    await cache.ensure('k', fetcher);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await cache.invalidate('k');
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(cache.getData('k')).toEqual({ n: 2 });
    stop();
  });

  it('refetches an invalidated key nobody reads when it is next read', async () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const fetcher = vi.fn(async () => 'answer');
    await cache.ensure('k', fetcher);
    await cache.invalidate('k');
    expect(fetcher).toHaveBeenCalledTimes(1);
    await cache.ensure('k', fetcher);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('drops an answer overtaken by a newer fetch', async () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const answers = [deferred<string>(), deferred<string>()];
    let call = 0;
    const stop = cache.subscribe('k', () => undefined);
    const old = cache.ensure('k', () => answers[call++]!.promise);
    const fresh = cache.invalidate('k');
    answers[1]!.resolve('new');
    await fresh;
    answers[0]!.resolve('old');
    await old;
    expect(cache.getData('k')).toBe('new');
    stop();
  });

  it('shows an error, clears it while fetching again without data, and keeps data on a failed refresh', async () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const failure = new Error('offline');
    await expect(cache.fetch('k', () => Promise.reject(failure))).rejects.toBe(failure);
    expect(cache.getSnapshot('k')).toEqual({ data: undefined, error: failure, isFetching: false });
    const retry = deferred<string>();
    const fetching = cache.fetch('k', () => retry.promise);
    expect(cache.getSnapshot('k')).toEqual({ data: undefined, error: null, isFetching: true });
    retry.resolve('cart');
    await fetching;
    const stop = cache.subscribe('k', () => undefined);
    await cache.fetch('k', () => Promise.reject(failure)).catch(() => undefined);
    expect(cache.getSnapshot('k')).toEqual({ data: 'cart', error: failure, isFetching: false });
    stop();
  });

  it('tells readers of a key about each change, and only them', () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const reader = vi.fn();
    const other = vi.fn();
    cache.subscribe('k', reader);
    cache.subscribe('other', other);
    cache.setData('k', 1);
    cache.updateData<number>('k', (n) => n + 1);
    expect(cache.getData('k')).toBe(2);
    expect(reader).toHaveBeenCalledTimes(2);
    expect(other).not.toHaveBeenCalled();
  });

  it('updates nothing when there is no data', () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const update = vi.fn((n: number) => n + 1);
    cache.updateData('k', update);
    expect(update).not.toHaveBeenCalled();
    expect(cache.getData('k')).toBeUndefined();
  });

  it('keeps data 60 seconds after its last reader left, then forgets it', () => {
    vi.useFakeTimers();
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const stop = cache.subscribe('k', () => undefined);
    cache.setData('k', 'cart');
    vi.advanceTimersByTime(120_000);
    expect(cache.getData('k')).toBe('cart');
    stop();
    vi.advanceTimersByTime(59_999);
    expect(cache.getData('k')).toBe('cart');
    vi.advanceTimersByTime(1);
    expect(cache.getData('k')).toBeUndefined();
  });

  it('forgets data written for a key nobody reads after 60 seconds', () => {
    vi.useFakeTimers();
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    cache.setData('k', 'cart');
    vi.advanceTimersByTime(60_000);
    expect(cache.getData('k')).toBeUndefined();
  });

  it('keeps the cached object when an equal answer comes in', () => {
    const cache = createQueryCache({ gcTimeMs: 60_000 });
    const first = { lines: [{ id: 1 }, { id: 2 }], total: 3 };
    cache.setData('k', first);
    cache.setData('k', { lines: [{ id: 1 }, { id: 2 }], total: 3 });
    expect(cache.getData('k')).toBe(first);
    cache.setData('k', { lines: [{ id: 1 }, { id: 3 }], total: 3 });
    const next = cache.getData<typeof first>('k');
    expect(next).not.toBe(first);
    expect(next?.lines[0]).toBe(first.lines[0]);
  });
});

describe('replaceEqualDeep', () => {
  it('reuses equal parts and replaces changed ones', () => {
    const before = { a: { b: 1 }, c: [1, 2], d: null };
    expect(replaceEqualDeep(before, { a: { b: 1 }, c: [1, 2], d: null })).toBe(before);
    const after = replaceEqualDeep(before, { a: { b: 1 }, c: [1, 2, 3], d: null });
    expect(after).toEqual({ a: { b: 1 }, c: [1, 2, 3], d: null });
    expect(after.a).toBe(before.a);
    expect(replaceEqualDeep(before, { a: { b: 1 }, c: [1, 2] })).not.toBe(before);
  });
});
