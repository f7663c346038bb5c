import { useQuery } from '@tanstack/react-query';
import { offersKey, readOffers } from './catalogue-queries.js';

/** The store's offers to choose from in a form (the first 100, newest first: the API's largest page). */
export function useAllOffers() {
  return useQuery({ queryKey: [...offersKey, 'all'], queryFn: () => readOffers(undefined, 100) });
}
