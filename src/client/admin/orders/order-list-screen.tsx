// The order list (docs/dashboard.md, "Orders"): searched by number, email or name and filtered by status, days and
// test, the filters kept in the address so that Back and a reload show the same list.
import { useEffect, useState, type FormEvent } from 'react';
import { OrderListSchema } from '../../../contract/merchant.js';
import { Button } from '../../ui/button.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { useAnnounce } from '../../ui/live-region.js';
import { SelectField } from '../../ui/select-field.js';
import { TextField } from '../../ui/text-field.js';
import { request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { formatDate, formatMoney } from '../kit/format.js';
import { PAGE_SIZE, Pager, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { navigate, useLocation } from '../navigation.js';
import { ScreenHeading } from '../screen-heading.js';
import {
  apiQueryOf,
  filtersFromSearch,
  hasFilters,
  ORDER_STATUSES,
  searchOfFilters,
  type OrderFilters,
} from './order-filters.js';
import { orderBadges } from './order-funnel.js';
import { ORDER_STATUS_WORDS } from './order-words.js';

/** The API's query parameters by the form's field names, so its refusals show by the right field. */
const API_FIELDS: Record<string, keyof OrderFilters> = {
  q: 'q',
  status: 'status',
  created_from: 'from',
  created_to: 'to',
  test: 'test',
};
const FIELD_ORDER = ['q', 'status', 'from', 'to', 'test'] as const;

function FilterForm(props: { initial: OrderFilters; failure: unknown; onSameSearch: () => void }) {
  const { onSameSearch } = props;
  const [draft, setDraft] = useState(props.initial);
  const set = (name: keyof OrderFilters) => (value: string) => setDraft({ ...draft, [name]: value });
  const failure = failureOf(props.failure);
  const fields: Record<string, string> = {};
  for (const [name, message] of Object.entries(failure.fields)) fields[API_FIELDS[name] ?? name] = message;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const search = searchOfFilters(draft);
    // The same search again adds no step to Back; its list is read again.
    if (search === window.location.search) onSameSearch();
    else navigate(`/admin/orders${search}`);
  };
  return (
    <form className="orders-filters" onSubmit={submit} noValidate aria-label="Find orders">
      <ErrorSummary errors={summaryOf(fields, FIELD_ORDER)} />
      <div className="admin-toolbar">
        <TextField
          name="q"
          label="Order number, email or name"
          type="search"
          autoComplete="off"
          required={false}
          maxLength={200}
          value={draft.q}
          onChange={set('q')}
          error={fields.q}
        />
        <SelectField
          name="status"
          label="Status"
          autoComplete="off"
          value={draft.status}
          onChange={set('status')}
          placeholder="All statuses"
          options={ORDER_STATUSES.map((status) => ({ value: status, label: ORDER_STATUS_WORDS[status] }))}
          error={fields.status}
        />
        <TextField
          name="from"
          label="Placed from"
          type="date"
          autoComplete="off"
          required={false}
          value={draft.from}
          onChange={set('from')}
          error={fields.from}
        />
        <TextField
          name="to"
          label="Placed to"
          type="date"
          autoComplete="off"
          required={false}
          value={draft.to}
          onChange={set('to')}
          error={fields.to}
        />
        <SelectField
          name="test"
          label="Test orders"
          autoComplete="off"
          value={draft.test}
          onChange={set('test')}
          options={[
            { value: '', label: 'All orders' },
            { value: 'true', label: 'Test orders only' },
            { value: 'false', label: 'Live orders only' },
          ]}
          error={fields.test}
        />
      </div>
      <div className="admin-actions">
        <Button type="submit">Find orders</Button>
        {hasFilters(props.initial) ? (
          <AdminLink to="/admin/orders">Clear the search and filters</AdminLink>
        ) : null}
      </div>
    </form>
  );
}

export function OrderListScreen() {
  const location = useLocation();
  const filters = filtersFromSearch(location.search);
  const announce = useAnnounce();
  const list = usePagedList(
    ['orders', 'list', filters],
    (startingAfter) =>
      request(
        OrderListSchema,
        'GET',
        `/checkout/api/merchant/orders${apiQueryOf(filters, {
          limit: PAGE_SIZE,
          ...(startingAfter === undefined ? {} : { startingAfter }),
        })}`,
      ),
    (order) => order.order_id,
  );
  const filtered = hasFilters(filters);
  const settled = list.query.isSuccess && !list.query.isPlaceholderData;
  const found = list.items.length;
  // A search's outcome is said once its answer is in (the heading is said when the screen opens).
  useEffect(() => {
    if (settled && filtered)
      announce(found === 0 ? 'No orders match.' : `Orders found: ${found}${list.hasNext ? ' or more' : ''}.`);
  }, [settled, filtered, found, list.hasNext, location.search, announce]);
  // A filter the server refused is shown by its field in the form above; the list waits for a good one.
  const refusedFilters = Object.keys(failureOf(list.query.error).fields).length > 0;
  return (
    <>
      <ScreenHeading>Orders</ScreenHeading>
      <div className="admin-stack">
        <FilterForm
          key={location.search}
          initial={filters}
          failure={list.query.error}
          onSameSearch={() => void list.query.refetch()}
        />
        {refusedFilters ? null : !list.query.data ? (
          <QueryState error={list.query.error} loading="Reading the orders…" />
        ) : list.items.length === 0 ? (
          <p>
            {filtered
              ? 'No orders match this search and these filters. Change them, or clear them to see every order.'
              : 'No orders yet. Orders appear here once shoppers check out.'}
          </p>
        ) : (
          <>
            <div className="admin-table-wrap">
              <table className="admin-table">
                <caption className="visually-hidden">
                  {filtered ? 'Orders found, newest first' : 'Orders, newest first'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Placed</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Status</th>
                    <th scope="col">Test</th>
                    <th scope="col" className="admin-number">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((order) => (
                    <tr key={order.order_id}>
                      <td className="orders-nowrap">
                        <AdminLink to={`/admin/orders/${order.order_id}`}>Order {order.order_id}</AdminLink>
                        {orderBadges(order).map((badge) => (
                          <span key={badge.key} className="admin-badge orders-kind">
                            {badge.text}
                          </span>
                        ))}
                      </td>
                      <td className="orders-nowrap">
                        <time dateTime={order.created_at}>{formatDate(order.created_at)}</time>
                      </td>
                      <td className="orders-customer">
                        {order.customer_name ? <span>{order.customer_name}</span> : null}
                        <span>{order.email || 'No email given'}</span>
                      </td>
                      <td>{ORDER_STATUS_WORDS[order.status]}</td>
                      <td>{order.is_test ? <span className="admin-badge">Test</span> : null}</td>
                      <td className="admin-number">{formatMoney(order.total, order.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager label="Orders" list={list} />
          </>
        )}
      </div>
    </>
  );
}
