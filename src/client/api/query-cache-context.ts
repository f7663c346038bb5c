import { createContext, useContext } from 'react';
import type { QueryCache } from './query-cache.js';

export const QueryCacheContext = createContext<QueryCache | null>(null);

/** The page's query cache (provided by CheckoutApp). */
export function useQueryCache(): QueryCache {
  const cache = useContext(QueryCacheContext);
  if (!cache) throw new Error('useQueryCache() outside <QueryCacheContext>');
  return cache;
}
