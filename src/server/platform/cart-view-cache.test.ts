import { describe, expect, it } from 'vitest';
import { createCartViewCache, type CartViewCache, type CartViewToKeep } from './cart-view-cache.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');

function view(tags: string[], json = '{"cart":1}', validUntil = NOW + 60_000): CartViewToKeep {
  return { json, tags, validUntil };
}

function listeningCache(maxEntries = 100): CartViewCache {
  const cache = createCartViewCache({ maxEntries });
  cache.setListening(true);
  return cache;
}

describe('cart view cache', () => {
  it('answers a kept view for the same organization and token only', () => {
    const cache = listeningCache();
    expect(cache.keep(cache.ticket(), 1, 'tok', view(['c:10']))).toBe(true);
    expect(cache.get(1, 'tok', NOW)).toBe('{"cart":1}');
    expect(cache.get(2, 'tok', NOW)).toBeNull();
    expect(cache.get(1, 'other', NOW)).toBeNull();
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, kept: 1, size: 1 });
  });

  it('drops every view carrying a changed tag, and only those', () => {
    const cache = listeningCache();
    cache.keep(cache.ticket(), 1, 'a', view(['c:1', 'o:1', 'f:7']));
    cache.keep(cache.ticket(), 1, 'b', view(['c:2', 'o:1', 'f:8']));
    cache.keep(cache.ticket(), 2, 'c', view(['c:3', 'o:2', 'f:7']));
    cache.changed('f:7');
    expect(cache.get(1, 'a', NOW)).toBeNull();
    expect(cache.get(2, 'c', NOW)).toBeNull();
    expect(cache.get(1, 'b', NOW)).not.toBeNull();
    cache.changed('o:1');
    expect(cache.get(1, 'b', NOW)).toBeNull();
    expect(cache.stats()).toMatchObject({ dropped: 3, size: 0 });
  });

  it('forgets everything on "*"', () => {
    const cache = listeningCache();
    cache.keep(cache.ticket(), 1, 'a', view(['c:1']));
    cache.keep(cache.ticket(), 1, 'b', view(['c:2']));
    cache.changed('*');
    expect(cache.get(1, 'a', NOW)).toBeNull();
    expect(cache.get(1, 'b', NOW)).toBeNull();
  });

  it('does not keep a view when something it is made of changed while it was read', () => {
    const cache = listeningCache();
    const ticket = cache.ticket();
    cache.changed('c:2'); // another cart: no matter
    cache.changed('u:5'); // this cart's customer, committed after the read began
    expect(cache.keep(ticket, 1, 'a', view(['c:1', 'u:5']))).toBe(false);
    expect(cache.get(1, 'a', NOW)).toBeNull();
    expect(cache.stats().refused).toBe(1);

    const next = cache.ticket();
    cache.changed('c:2');
    expect(cache.keep(next, 1, 'a', view(['c:1', 'u:5']))).toBe(true);
  });

  it('does not keep a view read across more changes than it remembers', () => {
    const cache = listeningCache();
    const ticket = cache.ticket();
    for (let n = 0; n < 5000; n++) cache.changed(`c:${1000 + n}`);
    expect(cache.keep(ticket, 1, 'a', view(['c:1']))).toBe(false);
  });

  it('stops at the time a view stops being true', () => {
    const cache = listeningCache();
    cache.keep(cache.ticket(), 1, 'a', view(['c:1'], '{}', NOW + 1000));
    expect(cache.get(1, 'a', NOW + 999)).toBe('{}');
    expect(cache.get(1, 'a', NOW + 1000)).toBeNull();
    expect(cache.stats().size).toBe(0);
  });

  it('serves nothing and keeps nothing until listening, and forgets all when listening stops', () => {
    const cache = createCartViewCache({ maxEntries: 10 });
    expect(cache.keep(cache.ticket(), 1, 'a', view(['c:1']))).toBe(false);
    cache.setListening(true);
    const ticket = cache.ticket();
    cache.keep(cache.ticket(), 1, 'a', view(['c:1']));
    cache.setListening(false);
    expect(cache.get(1, 'a', NOW)).toBeNull();
    cache.setListening(true);
    expect(cache.get(1, 'a', NOW)).toBeNull();
    // A read that began before the connection was lost may have missed a notice: not kept.
    expect(cache.keep(ticket, 1, 'b', view(['c:2']))).toBe(false);
  });

  it('evicts the least recently used view past its size', () => {
    const cache = listeningCache(2);
    cache.keep(cache.ticket(), 1, 'a', view(['c:1']));
    cache.keep(cache.ticket(), 1, 'b', view(['c:2']));
    cache.get(1, 'a', NOW); // a is now the most recent
    cache.keep(cache.ticket(), 1, 'c', view(['c:3']));
    expect(cache.get(1, 'b', NOW)).toBeNull();
    expect(cache.get(1, 'a', NOW)).not.toBeNull();
    expect(cache.get(1, 'c', NOW)).not.toBeNull();
    expect(cache.stats()).toMatchObject({ evicted: 1, size: 2 });
    // The evicted view's tags no longer point at it.
    cache.changed('c:2');
    expect(cache.stats().dropped).toBe(0);
  });

  it('replaces the view kept for a token', () => {
    const cache = listeningCache();
    cache.keep(cache.ticket(), 1, 'a', view(['c:1', 'd:4'], '{"v":1}'));
    cache.keep(cache.ticket(), 1, 'a', view(['c:1'], '{"v":2}'));
    expect(cache.get(1, 'a', NOW)).toBe('{"v":2}');
    cache.changed('d:4'); // the old view's tag: the new view does not carry it
    expect(cache.get(1, 'a', NOW)).toBe('{"v":2}');
  });
});
