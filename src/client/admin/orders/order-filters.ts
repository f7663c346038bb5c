// The order list's search and filters, kept in the address's query (?q=&status=&from=&to=&test=) so that Back, a
// reload and a shared link show the same list (docs/dashboard.md, "Orders").

export const ORDER_STATUSES = ['pending', 'declined', 'awaiting_payment', 'complete'] as const;
export type OrderStatusFilter = (typeof ORDER_STATUSES)[number];

export interface OrderFilters {
  q: string;
  status: OrderStatusFilter | '';
  /** YYYY-MM-DD or "" */
  from: string;
  to: string;
  /** '' all orders, 'true' test orders only, 'false' live orders only */
  test: '' | 'true' | 'false';
}

export const NO_FILTERS: OrderFilters = { q: '', status: '', from: '', to: '', test: '' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters an address's query names; a value the list cannot use is read as no filter. */
export function filtersFromSearch(search: string): OrderFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status') ?? '';
  const test = params.get('test') ?? '';
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    status: (ORDER_STATUSES as readonly string[]).includes(status) ? (status as OrderStatusFilter) : '',
    from: day('from'),
    to: day('to'),
    test: test === 'true' || test === 'false' ? test : '',
  };
}

/** The address's query for these filters ("" when none), the empty ones left out. */
export function searchOfFilters(filters: OrderFilters): string {
  const params = new URLSearchParams();
  const q = filters.q.trim();
  if (q) params.set('q', q);
  if (filters.status) params.set('status', filters.status);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.test) params.set('test', filters.test);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API's query for one page of the list with these filters (docs/api.md, "Orders: search and filters"). */
export function apiQueryOf(filters: OrderFilters, page: { limit: number; startingAfter?: number }): string {
  const params = new URLSearchParams({ limit: String(page.limit) });
  if (page.startingAfter !== undefined) params.set('starting_after', String(page.startingAfter));
  const q = filters.q.trim();
  if (q) params.set('q', q);
  if (filters.status) params.set('status', filters.status);
  if (filters.from) params.set('created_from', filters.from);
  if (filters.to) params.set('created_to', filters.to);
  if (filters.test) params.set('test', filters.test);
  return `?${params.toString()}`;
}

export function hasFilters(filters: OrderFilters): boolean {
  return searchOfFilters(filters) !== '';
}
