// The subscriptions list (docs/dashboard.md, "Subscriptions"): filtered by status, test or live, and the customer's
// email or an id, the filters kept in the address; a page at a time.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { SubscriptionListSchema } from '../../../contract/merchant.js';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';
import { TextField } from '../../ui/text-field.js';
import { request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { failureOf } from '../kit/form-failure.js';
import { formatDate, formatMoney } from '../kit/format.js';
import { Pager, PAGE_SIZE, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { navigate } from '../navigation.js';
import { ScreenHeading } from '../screen-heading.js';
import { FilterSelect } from './filter-select.js';
import { chargeIntervalOf, planBadge } from './subscription-plan-words.js';
import {
  everyInterval,
  queryOf,
  STATUS_LABELS,
  upcomingCharge,
  type SubscriptionFilters,
} from './subscription-filters.js';

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
];
const TEST_OPTIONS = [
  { value: '', label: 'Live and test' },
  { value: 'false', label: 'Live only' },
  { value: 'true', label: 'Test only' },
];

export const subscriptionsKey = ['subscriptions'] as const;

function listUrl(filters: SubscriptionFilters, startingAfter: number | undefined): string {
  const params = new URLSearchParams(queryOf(filters));
  params.set('limit', String(PAGE_SIZE));
  if (startingAfter !== undefined) params.set('starting_after', String(startingAfter));
  return `/checkout/api/merchant/subscriptions?${params.toString()}`;
}

/**
 * Says how many subscriptions a new filter shows once they arrive: the focus stays on the filter that changed (a
 * select moved with the arrow keys changes the list at each step), so the list's change is announced instead.
 */
function useFilteredCount(
  filters: SubscriptionFilters,
  page: { data: unknown[]; has_more: boolean } | undefined,
) {
  const announce = useAnnounce();
  const filtersText = JSON.stringify(filters);
  const announced = useRef(filtersText);
  useEffect(() => {
    if (!page || announced.current === filtersText) return;
    announced.current = filtersText;
    const count = page.data.length;
    announce(
      count === 0
        ? 'No subscriptions match.'
        : `${count}${page.has_more ? ' or more' : ''} subscription${count === 1 ? '' : 's'} shown.`,
    );
  }, [page, filtersText, announce]);
}

export function SubscriptionListScreen(props: { filters: SubscriptionFilters }) {
  const { filters } = props;
  const [search, setSearch] = useState(filters.q);
  // Back or a link with another search: the field shows the address's (set while rendering, as React advises).
  const [shownQ, setShownQ] = useState(filters.q);
  if (shownQ !== filters.q) {
    setShownQ(filters.q);
    setSearch(filters.q);
  }
  const list = usePagedList(
    [...subscriptionsKey, 'list', filters],
    (cursor) => request(SubscriptionListSchema, 'GET', listUrl(filters, cursor)),
    (subscription) => subscription.id,
  );
  const show = (change: Partial<SubscriptionFilters>) =>
    navigate(`/admin/subscriptions${queryOf({ ...filters, ...change })}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    show({ q: search });
  };
  const failure = failureOf(list.query.error);
  useFilteredCount(filters, list.query.data);
  const filtered = Boolean(filters.status || filters.test || filters.q);
  return (
    <div className="admin-stack">
      <ScreenHeading>Subscriptions</ScreenHeading>
      <form className="admin-toolbar" onSubmit={submit} role="search" aria-label="Subscriptions">
        <FilterSelect
          name="status"
          label="Status"
          value={filters.status}
          options={STATUS_OPTIONS}
          onChange={(value) => show({ status: value as SubscriptionFilters['status'] })}
        />
        <FilterSelect
          name="test"
          label="Live or test"
          value={filters.test}
          options={TEST_OPTIONS}
          onChange={(value) => show({ test: value as SubscriptionFilters['test'] })}
        />
        <TextField
          name="q"
          label="Customer email or subscription id"
          type="search"
          autoComplete="off"
          required={false}
          value={search}
          onChange={setSearch}
          error={failure.fields.q}
        />
        <div className="admin-actions subscriptions-search-actions">
          <Button type="submit">Search</Button>
          {filtered ? (
            <Button
              variant="secondary"
              onClick={() => {
                setSearch('');
                navigate('/admin/subscriptions');
              }}
            >
              Show all
            </Button>
          ) : null}
        </div>
      </form>
      {list.query.error ? (
        failure.fields.q ? null : (
          <QueryState error={list.query.error} loading="" />
        )
      ) : !list.query.data ? (
        <QueryState error={null} loading="Reading the subscriptions…" />
      ) : list.items.length === 0 ? (
        <p>{filtered ? 'No subscriptions match these filters.' : 'No one has subscribed yet.'}</p>
      ) : (
        <>
          <div className="admin-table-wrap subscriptions-scroll">
            <table className="admin-table">
              <caption className="visually-hidden">
                Subscriptions{filtered ? ' matching the filters' : ''}, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Subscription</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Status</th>
                  <th scope="col">Each cycle</th>
                  <th scope="col">Next charge</th>
                  <th scope="col">Test</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((subscription) => {
                  const next = upcomingCharge(subscription);
                  return (
                    <tr key={subscription.id}>
                      <td>
                        <AdminLink to={`/admin/subscriptions/${subscription.id}`}>
                          {subscription.id}
                        </AdminLink>
                      </td>
                      <td>{subscription.customer_email}</td>
                      <td>
                        {STATUS_LABELS[subscription.status]}
                        {subscription.cancel_at ? ' (ending)' : ''}
                      </td>
                      <td>
                        {formatMoney(subscription.cycle_amount, subscription.currency)}{' '}
                        {everyInterval(chargeIntervalOf(subscription))}
                        {planBadge(subscription) ? (
                          <span className="admin-badge subscriptions-plan">{planBadge(subscription)}</span>
                        ) : null}
                      </td>
                      <td>{next ? formatDate(next) : 'None'}</td>
                      <td>{subscription.is_test ? <span className="admin-badge">Test</span> : 'Live'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager label="Subscriptions" list={list} />
        </>
      )}
    </div>
  );
}
