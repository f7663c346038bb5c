import { useQuery } from '@tanstack/react-query';
import { readStore, STORE_KEY } from './catalogue-queries.js';

/** The store's currency for showing amounts; null until it is read. */
export function useCurrency(): string | null {
  const store = useQuery({ queryKey: STORE_KEY, queryFn: readStore, staleTime: 5 * 60_000 });
  return store.data?.currency ?? null;
}
