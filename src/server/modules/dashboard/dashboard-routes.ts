// The dashboard's own figures (docs/dashboard.md, "Home"); everything else it shows comes from the merchant API.
import { DashboardSummarySchema } from '../../../contract/dashboard.js';
import type { AppContext } from '../../platform/context.js';
import { major } from '../../platform/http/money-input.js';
import type { Router } from '../../platform/http/router.js';
import { merchantOf } from '../organizations/request-context.js';
import { countSummary } from './summary-repository.js';
import { periodStarts } from './summary-periods.js';

export function registerDashboardRoutes(router: Router, context: AppContext): void {
  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/summary',
    summary: "Today's and this month's orders and sales, carts opened, subscriptions",
    description:
      'Days and months in UTC. Sales are the totals of completed orders that are not test orders; test orders are ' +
      'counted apart. carts_opened counts this month’s carts that are not test carts.',
    tags: ['merchant: dashboard'],
    guard: 'merchant',
    responses: { 200: { description: 'The figures', schema: DashboardSummarySchema } },
    async handler({ request }) {
      const organization = merchantOf(request);
      const now = context.clock.now();
      const row = await countSummary(context.db, organization.id, periodStarts(now));
      const money = (amount: number) => major(Number(amount), organization.currency);
      return {
        currency: organization.currency,
        today: { orders: row.today_orders, sales: money(row.today_sales), test_orders: row.today_test },
        month: { orders: row.month_orders, sales: money(row.month_sales), test_orders: row.month_test },
        carts_opened: row.carts_opened,
        subscriptions: { active: row.active, past_due: row.past_due },
        as_of: now.toISOString(),
      };
    },
  });
}
