import { useQuery } from '@tanstack/react-query';
import { CURRENCY_KEY, readCurrency } from './catalogue-queries.js';

/** The store's currency for showing amounts; null until it is read. */
export function useCurrency(): string | null {
  const currency = useQuery({ queryKey: CURRENCY_KEY, queryFn: readCurrency, staleTime: 5 * 60_000 });
  return currency.data ?? null;
}
