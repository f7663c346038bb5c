import { useCallback, useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import type { QueryCache } from './query-cache.js';

export interface CachedQuery<T> {
  key: string;
  fetch: () => Promise<T>;
}

export interface CachedQueryResult<T> {
  data: T | undefined;
  error: unknown;
  isFetching: boolean;
  /** fetches again now; its failure shows as `error` */
  refetch: () => Promise<void>;
}

/**
 * Reads a query from the cache and fetches it when enabled and it has no data (or was invalidated). Every reader of
 * a key shares one entry, so two readers asking together send one request.
 */
export function useCachedQuery<T>(
  cache: QueryCache,
  query: CachedQuery<T>,
  options: { enabled: boolean },
): CachedQueryResult<T> {
  const { key, fetch } = query;
  const subscribe = useCallback((listener: () => void) => cache.subscribe(key, listener), [cache, key]);
  const getSnapshot = useCallback(() => cache.getSnapshot<T>(key), [cache, key]);
  const snapshot = useSyncExternalStore(subscribe, getSnapshot);
  const { enabled } = options;
  // The fetcher is rebuilt each render; the key names what it fetches.
  const ensure = useEffectEvent(() => void cache.ensure(key, fetch));
  useEffect(() => {
    if (enabled) ensure();
  }, [cache, key, enabled]);
  const refetch = useCallback(async () => {
    await cache.fetch(key, fetch).catch(() => undefined);
  }, [cache, key, fetch]);
  return { data: snapshot.data, error: snapshot.error, isFetching: snapshot.isFetching, refetch };
}
