import { describe, expect, it } from 'vitest';
import { apiQueryOf, filtersFromSearch, hasFilters, NO_FILTERS, searchOfFilters } from './order-filters.js';

describe('the order filters in the address', () => {
  it('round-trip through the query, leaving out the empty ones', () => {
    const filters = { q: 'ada', status: 'complete', from: '2026-11-01', to: '', test: 'false' } as const;
    const search = searchOfFilters(filters);
    expect(search).toBe('?q=ada&status=complete&from=2026-11-01&test=false');
    expect(filtersFromSearch(search)).toEqual(filters);
    expect(searchOfFilters(NO_FILTERS)).toBe('');
    expect(hasFilters(NO_FILTERS)).toBe(false);
  });

  it('read a value the list cannot use as no filter', () => {
    expect(filtersFromSearch('?status=shipped&test=yes&from=yesterday&to=2026-11-3')).toEqual(NO_FILTERS);
  });

  it('keep spaces and symbols of the search through the query', () => {
    const search = searchOfFilters({ ...NO_FILTERS, q: ' Ada Lovelace & co ' });
    expect(filtersFromSearch(search).q).toBe('Ada Lovelace & co');
  });
});

describe("the API's query", () => {
  it('names the dates as the API does and carries the cursor', () => {
    expect(
      apiQueryOf(
        { q: '#12', status: '', from: '2026-11-01', to: '2026-11-30', test: 'true' },
        { limit: 25, startingAfter: 40 },
      ),
    ).toBe('?limit=25&starting_after=40&q=%2312&created_from=2026-11-01&created_to=2026-11-30&test=true');
    expect(apiQueryOf(NO_FILTERS, { limit: 25 })).toBe('?limit=25');
  });
});
