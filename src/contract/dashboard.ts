import { z } from './zod.js';

// The dashboard's home (docs/dashboard.md, "Home"): orders and sales of today and this month, test orders apart.

const PeriodSchema = z.object({
  /** completed orders that are not test orders */
  orders: z.int(),
  /** their totals, in the store's currency (major units) */
  sales: z.number(),
  /** completed test orders: nobody was charged */
  test_orders: z.int(),
});

export const DashboardSummarySchema = z.object({
  currency: z.string(),
  /** since midnight UTC, and since the first of the month UTC */
  today: PeriodSchema,
  month: PeriodSchema,
  /** carts opened this month (not test) against the orders placed from them */
  carts_opened: z.int(),
  subscriptions: z.object({ active: z.int(), past_due: z.int() }),
  as_of: z.string(),
});
export type DashboardSummary = z.infer<typeof DashboardSummarySchema>;
