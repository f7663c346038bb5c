import { useQuery } from '@tanstack/react-query';
import type { StoreLanguages } from '../../../contract/organization.js';
import { readStore, STORE_KEY } from './catalogue-queries.js';

/** The store's default and enabled languages (docs/languages.md); null until they are read. */
export function useStoreLanguages(): StoreLanguages | null {
  const store = useQuery({ queryKey: STORE_KEY, queryFn: readStore, staleTime: 5 * 60_000 });
  return store.data?.languages ?? null;
}
