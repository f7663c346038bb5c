// The dashboard's home (docs/dashboard.md, "Home"): today's and this month's orders and sales, test orders apart.
import { useQuery } from '@tanstack/react-query';
import type { DashboardSummary } from '../../contract/dashboard.js';
import { ApiFailure } from './admin-api.js';
import { readSummary, SUMMARY_KEY } from './admin-queries.js';
import { formatMoney } from './kit/format.js';
import { ScreenHeading } from './screen-heading.js';

function Period({
  title,
  figures,
  currency,
}: {
  title: string;
  figures: DashboardSummary['today'];
  currency: string;
}) {
  return (
    <section className="admin-card" aria-labelledby={`period-${title}`}>
      <h2 id={`period-${title}`}>{title}</h2>
      <dl className="admin-figures">
        <div>
          <dt>Orders</dt>
          <dd>{figures.orders}</dd>
        </div>
        <div>
          <dt>Sales</dt>
          <dd>{formatMoney(figures.sales, currency)}</dd>
        </div>
        <div>
          <dt>Test orders</dt>
          <dd>{figures.test_orders}</dd>
        </div>
      </dl>
    </section>
  );
}

export function HomeScreen() {
  const summary = useQuery({ queryKey: SUMMARY_KEY, queryFn: readSummary });
  return (
    <>
      <ScreenHeading>Home</ScreenHeading>
      {summary.error ? (
        <p role="alert">
          {summary.error instanceof ApiFailure ? summary.error.message : 'The figures could not be read.'}
        </p>
      ) : !summary.data ? (
        <p className="loading" role="status">
          Counting…
        </p>
      ) : (
        <div className="admin-grid">
          <Period title="Today" figures={summary.data.today} currency={summary.data.currency} />
          <Period title="This month" figures={summary.data.month} currency={summary.data.currency} />
          <section className="admin-card" aria-labelledby="carts-heading">
            <h2 id="carts-heading">Checkouts this month</h2>
            <dl className="admin-figures">
              <div>
                <dt>Carts opened</dt>
                <dd>{summary.data.carts_opened}</dd>
              </div>
              <div>
                <dt>Orders placed</dt>
                <dd>{summary.data.month.orders}</dd>
              </div>
            </dl>
          </section>
          <section className="admin-card" aria-labelledby="subscriptions-heading">
            <h2 id="subscriptions-heading">Subscriptions</h2>
            <dl className="admin-figures">
              <div>
                <dt>Active</dt>
                <dd>{summary.data.subscriptions.active}</dd>
              </div>
              <div>
                <dt>Past due</dt>
                <dd>{summary.data.subscriptions.past_due}</dd>
              </div>
            </dl>
          </section>
          <p className="admin-note">
            Days and months in UTC. Sales are the totals of completed orders, test orders apart.
          </p>
        </div>
      )}
    </>
  );
}
