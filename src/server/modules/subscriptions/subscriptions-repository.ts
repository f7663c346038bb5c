import { updateRow } from '../../platform/db/sql.js';
import type { Queryable } from '../../platform/db/database.js';
import type { SubscriptionSearch } from './subscription-search.js';
import type { BillingPlan } from '../../../domain/billing-plan.js';

export interface SubscriptionRow {
  id: number;
  organization_id: number;
  order_id: number;
  order_line_id: number;
  customer_id: number;
  offer_id: number;
  payment_method_id: number | null;
  status: 'active' | 'paused' | 'past_due' | 'cancelled';
  quantity: number;
  cycle_amount: number;
  currency: string;
  interval_days: number;
  cycle: number;
  next_charge_at: Date;
  retry_count: number;
  is_test: boolean;
  created_at: Date;
  updated_at: Date;
  paused_at: Date | null;
  cancelled_at: Date | null;
  /** a cancel scheduled for the end of the paid period (docs/subscriptions.md, "Self-service") */
  cancel_at: Date | null;
  changed_by: 'merchant' | 'subscriber' | null;
  /** its prices by cycle as kept from the order (minor units; parseStoredPlan reads it); null before them */
  billing_plan: unknown;
  /** plan_completed: ended after the last of its cycles */
  end_reason: 'plan_completed' | null;
  /** a prepaid plan's last cycle had (charged or fulfilled), 1 = the order's; null for any other plan */
  prepaid_shipped_cycle: number | null;
  /** a rebill runner is charging it until then */
  lease_until: Date | null;
  /** joined */
  customer_email: string;
  pm_method: string | null;
  pm_card_brand: string | null;
  pm_card_last4: string | null;
  /** joined: the percent off its order line was subscribed at (subscribe and save), else null */
  subscribe_and_save_percent: number | null;
}

export interface SubscriptionChargeRow {
  subscription_id: number;
  cycle: number;
  attempt: number;
  amount: number;
  status: 'approved' | 'declined' | 'error';
  message: string | null;
  created_at: Date;
}

const SELECT = `SELECT s.*, c.email AS customer_email, pm.method AS pm_method, pm.card_brand AS pm_card_brand,
       pm.card_last4 AS pm_card_last4,
       (SELECT l.subscribe_and_save_percent FROM order_lines l
         WHERE l.organization_id = s.organization_id AND l.id = s.order_line_id) AS subscribe_and_save_percent
  FROM subscriptions s
  JOIN customers c ON c.organization_id = s.organization_id AND c.id = s.customer_id
  LEFT JOIN payment_methods pm ON pm.organization_id = s.organization_id AND pm.id = s.payment_method_id`;

export interface SubscriptionListFilter {
  status?: SubscriptionRow['status'] | undefined;
  isTest?: boolean | undefined;
  search?: SubscriptionSearch | undefined;
}

export async function listSubscriptions(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined } & SubscriptionListFilter,
): Promise<{ rows: SubscriptionRow[]; hasMore: boolean }> {
  const limit = options.limit ?? 50;
  const search = options.search ?? { kind: 'none' };
  const { rows } = await db.query<SubscriptionRow>(
    `${SELECT} WHERE s.organization_id = $1 AND ($2::bigint IS NULL OR s.id < $2)
        AND ($4::text IS NULL OR s.status = $4)
        AND ($5::boolean IS NULL OR s.is_test = $5)
        AND ($6::bigint IS NULL OR s.id = $6)
        AND ($7::text IS NULL OR lower(c.email) LIKE $7)
      ORDER BY s.id DESC LIMIT $3`,
    [
      organizationId,
      options.startingAfter ?? null,
      limit + 1,
      options.status ?? null,
      options.isTest ?? null,
      search.kind === 'id' ? search.id : null,
      search.kind === 'email' ? search.pattern : null,
    ],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function findSubscription(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<SubscriptionRow | null> {
  const { rows } = await db.query<SubscriptionRow>(`${SELECT} WHERE s.organization_id = $1 AND s.id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0] ?? null;
}

export async function findSubscriptionCharges(
  db: Queryable,
  organizationId: number,
  subscriptionIds: readonly number[],
): Promise<SubscriptionChargeRow[]> {
  if (subscriptionIds.length === 0) return [];
  const { rows } = await db.query<SubscriptionChargeRow>(
    `SELECT subscription_id, cycle, attempt, amount, status, message, created_at FROM subscription_charges
      WHERE organization_id = $1 AND subscription_id = ANY($2::bigint[]) ORDER BY id`,
    [organizationId, subscriptionIds],
  );
  return rows;
}

export interface NewSubscription {
  order_id: number;
  order_line_id: number;
  customer_id: number;
  offer_id: number;
  payment_method_id: number | null;
  quantity: number;
  cycle_amount: number;
  currency: string;
  interval_days: number;
  next_charge_at: Date;
  /** the prices by cycle it keeps (subscriptionPlanOf) */
  billing_plan: BillingPlan;
  /** a prepaid plan's cycle shipped with the order (1); null otherwise */
  prepaid_shipped_cycle: number | null;
  is_test: boolean;
}

export async function insertSubscription(
  db: Queryable,
  organizationId: number,
  values: NewSubscription,
  now: Date,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO subscriptions (organization_id, order_id, order_line_id, customer_id, offer_id, payment_method_id, status,
                                quantity, cycle_amount, currency, interval_days, cycle, next_charge_at, is_test,
                                created_at, updated_at, billing_plan, prepaid_shipped_cycle)
     VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, 1, $11, $12, $13, $13, $14::jsonb, $15) RETURNING id`,
    [
      organizationId,
      values.order_id,
      values.order_line_id,
      values.customer_id,
      values.offer_id,
      values.payment_method_id,
      values.quantity,
      values.cycle_amount,
      values.currency,
      values.interval_days,
      values.next_charge_at,
      values.is_test,
      now,
      JSON.stringify(values.billing_plan),
      values.prepaid_shipped_cycle,
    ],
  );
  return (rows[0] as { id: number }).id;
}

/** What the confirmation page says about a subscription an order started. */
export interface OrderSubscriptionNotice {
  order_offer_id: number;
  item_name: string;
  cycle_amount: number;
  interval_days: number;
  next_charge_at: Date;
}

/** What the confirmation page says about each subscription an order started, in the order they were started. */
export async function findOrderSubscriptionNotices(
  db: Queryable,
  organizationId: number,
  orderId: number,
): Promise<(OrderSubscriptionNotice & { billing_plan: unknown; prepaid_shipped_cycle: number | null })[]> {
  const { rows } = await db.query<
    OrderSubscriptionNotice & { billing_plan: unknown; prepaid_shipped_cycle: number | null }
  >(
    `SELECT l.cart_offer_id AS order_offer_id, l.item_name, s.cycle_amount, s.interval_days, s.next_charge_at,
            s.billing_plan, s.prepaid_shipped_cycle
       FROM subscriptions s
       JOIN order_lines l ON l.organization_id = s.organization_id AND l.id = s.order_line_id
      WHERE s.organization_id = $1 AND s.order_id = $2 ORDER BY s.id`,
    [organizationId, orderId],
  );
  return rows;
}

export interface DueSubscriptionRow {
  id: number;
  organization_id: number;
  status: SubscriptionRow['status'];
  cycle: number;
  cycle_amount: number;
  currency: string;
  interval_days: number;
  next_charge_at: Date;
  retry_count: number;
  is_test: boolean;
  payment_method_id: number | null;
  pm_gateway: string | null;
  pm_token: string | null;
  /** the processor's customer of the stored method (Stripe cus_…), charged with it */
  pm_customer: string | null;
  /** charges already recorded for the cycle being charged: the next attempt's number is this + 1 */
  attempts_this_cycle: number;
  /** the organization's stored dunning setting (organizations.settings.dunning), unparsed; null when never set */
  org_dunning: unknown;
  /** its prices by cycle (parseStoredPlan reads it); null for subscriptions made before them */
  billing_plan: unknown;
  /** a prepaid plan's last cycle had; null for any other plan */
  prepaid_shipped_cycle: number | null;
  /** what a prepaid plan's fulfilment order is made from: the first order, its customer, line and offer */
  order_id: number;
  order_line_id: number;
  customer_id: number;
  offer_id: number;
  quantity: number;
}

/**
 * Claims due subscriptions for one runner: rows another runner holds are skipped (SKIP LOCKED), and the claim is a
 * lease, so the charge can run outside the transaction and a crashed runner's claim lapses.
 */
export async function claimDueSubscriptions(
  db: Queryable,
  input: { now: Date; leaseUntil: Date; limit: number },
): Promise<DueSubscriptionRow[]> {
  const { rows } = await db.query<DueSubscriptionRow>(
    `WITH due AS (
       SELECT id FROM subscriptions
        WHERE status = 'active' AND next_charge_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
          -- A prepaid plan cancelled for the end of its period still ships the cycles paid for before then.
          AND (cancel_at IS NULL OR (prepaid_shipped_cycle IS NOT NULL AND next_charge_at < cancel_at))
        ORDER BY next_charge_at, id
        LIMIT $3
        FOR UPDATE SKIP LOCKED
     )
     UPDATE subscriptions s SET lease_until = $2
       FROM due
      WHERE s.id = due.id
     RETURNING s.id, s.organization_id, s.status, s.cycle, s.cycle_amount, s.currency, s.interval_days, s.next_charge_at,
               s.retry_count, s.is_test, s.payment_method_id, s.billing_plan, s.prepaid_shipped_cycle,
               s.order_id, s.order_line_id, s.customer_id, s.offer_id, s.quantity,
               (SELECT pm.gateway FROM payment_methods pm WHERE pm.organization_id = s.organization_id AND pm.id = s.payment_method_id) AS pm_gateway,
               (SELECT pm.gateway_token FROM payment_methods pm WHERE pm.organization_id = s.organization_id AND pm.id = s.payment_method_id) AS pm_token,
               (SELECT pm.gateway_customer FROM payment_methods pm WHERE pm.organization_id = s.organization_id AND pm.id = s.payment_method_id) AS pm_customer,
               (SELECT count(*) FROM subscription_charges c WHERE c.subscription_id = s.id AND c.cycle = s.cycle + 1)::bigint AS attempts_this_cycle,
               (SELECT o.settings -> 'dunning' FROM organizations o WHERE o.id = s.organization_id) AS org_dunning`,
    [input.now, input.leaseUntil, input.limit],
  );
  return rows;
}

/** Records one charge attempt; false when this attempt was already recorded (another runner, or a retry). */
export async function insertSubscriptionCharge(
  db: Queryable,
  values: {
    organizationId: number;
    subscriptionId: number;
    cycle: number;
    attempt: number;
    amount: number;
    status: 'approved' | 'declined' | 'error';
    message: string | null;
    reference: string | null;
    now: Date;
  },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO subscription_charges (organization_id, subscription_id, cycle, attempt, amount, status, message,
                                       gateway_reference, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (subscription_id, cycle, attempt) DO NOTHING`,
    [
      values.organizationId,
      values.subscriptionId,
      values.cycle,
      values.attempt,
      values.amount,
      values.status,
      values.message,
      values.reference,
      values.now,
    ],
  );
  return rowCount > 0;
}

/** Moves a subscription on after a charge attempt of `cycle`, only if nobody did already. */
export async function scheduleSubscription(
  db: Queryable,
  values: {
    organizationId: number;
    subscriptionId: number;
    chargedCycle: number;
    approved: boolean;
    nextChargeAt: Date;
    retryCount: number;
    /** where dunning ended it (docs/operations.md, "Dunning"); null while it stays active */
    end: 'past_due' | 'cancelled' | 'paused' | null;
    /** approved: what the cycle after the charged one charges (its next charge), or null when there is none */
    nextCycleAmount?: number | null;
    /** approved: the charged cycle was the last of its plan, so it ends now (docs/subscriptions.md) */
    planCompleted?: boolean;
    /** approved, a prepaid plan: the cycle its payment starts (docs/subscriptions.md, "Prepaid plans") */
    shippedCycle?: number | null;
    now: Date;
  },
): Promise<{ ended: boolean; completed: boolean }> {
  // Only an active subscription moves to the end of its dunning: the merchant may have paused or cancelled it while
  // it was charged. True when it did.
  const { rows } = await db.query<{ ended: boolean; completed: boolean }>(
    `WITH before AS (
       SELECT id, status FROM subscriptions WHERE organization_id = $1 AND id = $2 AND cycle = $3 - 1 FOR UPDATE
     )
     UPDATE subscriptions s
        SET cycle = CASE WHEN $4 THEN $3 ELSE s.cycle END,
            cycle_amount = CASE WHEN $4 AND $9::bigint IS NOT NULL THEN $9::bigint ELSE s.cycle_amount END,
            next_charge_at = $5,
            retry_count = $6,
            status = CASE WHEN $4 AND $10::boolean AND s.status <> 'cancelled' THEN 'cancelled'
                          WHEN $7::text IS NOT NULL AND s.status = 'active' THEN $7::text ELSE s.status END,
            paused_at = CASE WHEN $7::text = 'paused' AND s.status = 'active' THEN $8 ELSE s.paused_at END,
            cancelled_at = CASE WHEN $4 AND $10::boolean AND s.status <> 'cancelled' THEN $8
                                WHEN $7::text = 'cancelled' AND s.status = 'active' THEN $8 ELSE s.cancelled_at END,
            end_reason = CASE WHEN $4 AND $10::boolean AND s.status <> 'cancelled' THEN 'plan_completed' ELSE s.end_reason END,
            cancel_at = CASE WHEN $4 AND $10::boolean THEN NULL ELSE s.cancel_at END,
            prepaid_shipped_cycle = CASE WHEN $4 AND $11::integer IS NOT NULL THEN $11::integer
                                         ELSE s.prepaid_shipped_cycle END,
            lease_until = NULL,
            updated_at = $8
       FROM before
      WHERE s.id = before.id
      RETURNING ($7::text IS NOT NULL AND before.status = 'active') AS ended,
                ($4 AND $10::boolean AND before.status <> 'cancelled') AS completed`,
    [
      values.organizationId,
      values.subscriptionId,
      values.chargedCycle,
      values.approved,
      values.nextChargeAt,
      values.retryCount,
      values.end,
      values.now,
      values.nextCycleAmount ?? null,
      values.planCompleted ?? false,
      values.shippedCycle ?? null,
    ],
  );
  return { ended: rows[0]?.ended ?? false, completed: rows[0]?.completed ?? false };
}

/**
 * Moves a prepaid subscription past the cycle `cycle` it fulfils, only if it is active and nobody did already (its
 * last cycle had is `cycle` - 1); `ends` ends it there (plan_completed). False when it did not move.
 */
export async function advancePrepaidCycle(
  db: Queryable,
  values: {
    organizationId: number;
    subscriptionId: number;
    cycle: number;
    nextChargeAt: Date;
    ends: boolean;
    now: Date;
  },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE subscriptions
        SET prepaid_shipped_cycle = $3, next_charge_at = $4, lease_until = NULL, updated_at = $6,
            status = CASE WHEN $5 THEN 'cancelled' ELSE status END,
            cancelled_at = CASE WHEN $5 THEN $6 ELSE cancelled_at END,
            end_reason = CASE WHEN $5 THEN 'plan_completed' ELSE end_reason END,
            cancel_at = CASE WHEN $5 THEN NULL ELSE cancel_at END
      WHERE organization_id = $1 AND id = $2 AND status = 'active' AND prepaid_shipped_cycle = $3 - 1`,
    [
      values.organizationId,
      values.subscriptionId,
      values.cycle,
      values.nextChargeAt,
      values.ends,
      values.now,
    ],
  );
  return rowCount > 0;
}

/** Ends a subscription whose plan has no cycle left (plan_completed); false when it had ended already. */
export async function endSubscriptionPlan(
  db: Queryable,
  organizationId: number,
  id: number,
  now: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE subscriptions
        SET status = 'cancelled', cancelled_at = $3, end_reason = 'plan_completed', cancel_at = NULL,
            lease_until = NULL, updated_at = $3
      WHERE organization_id = $1 AND id = $2 AND status <> 'cancelled'`,
    [organizationId, id, now],
  );
  return rowCount > 0;
}

/** A status change also drops a scheduled cancel: resuming keeps the subscription, cancelling ends it now. */
export async function setSubscriptionStatus(
  db: Queryable,
  organizationId: number,
  id: number,
  values: {
    status: SubscriptionRow['status'];
    nextChargeAt?: Date;
    resetRetries?: boolean;
    changedBy?: 'merchant' | 'subscriber';
    now: Date;
  },
): Promise<void> {
  await db.query(
    `UPDATE subscriptions
        SET status = $3,
            next_charge_at = coalesce($4, next_charge_at),
            retry_count = CASE WHEN $5 THEN 0 ELSE retry_count END,
            paused_at = CASE WHEN $3 = 'paused' THEN $6 WHEN $3 = 'active' THEN NULL ELSE paused_at END,
            cancelled_at = CASE WHEN $3 = 'cancelled' THEN $6 ELSE cancelled_at END,
            cancel_at = NULL,
            changed_by = coalesce($7, changed_by),
            updated_at = $6
      WHERE organization_id = $1 AND id = $2`,
    [
      organizationId,
      id,
      values.status,
      values.nextChargeAt ?? null,
      values.resetRetries ?? false,
      values.now,
      values.changedBy ?? null,
    ],
  );
}

/**
 * Cancels the subscriptions whose scheduled cancel has come, as of that date, and answers them. Every organization's:
 * the rebill run calls it before it charges.
 */
export async function endScheduledCancels(
  db: Queryable,
  now: Date,
): Promise<{ id: number; organization_id: number; cancelled_at: Date }[]> {
  const { rows } = await db.query<{ id: number; organization_id: number; cancelled_at: Date }>(
    `UPDATE subscriptions
        SET status = 'cancelled', cancelled_at = cancel_at, cancel_at = NULL, updated_at = $1
      WHERE cancel_at IS NOT NULL AND cancel_at <= $1 AND status <> 'cancelled'
      RETURNING id, organization_id, cancelled_at`,
    [now],
  );
  return rows;
}

/**
 * A change of a subscription's schedule or card, with who made it: a cancel at the end of the paid period (or, with
 * null, none), a next charge moved (a skip), a payment method its renewals are charged to from now on.
 */
export async function changeSubscriptionFields(
  db: Queryable,
  organizationId: number,
  id: number,
  changes: { cancel_at?: Date | null; next_charge_at?: Date; payment_method_id?: number },
  by: { changedBy: 'merchant' | 'subscriber'; now: Date },
): Promise<void> {
  await updateRow(db, 'subscriptions', organizationId, id, { ...changes, changed_by: by.changedBy }, by.now);
}

export async function lockSubscription(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<SubscriptionRow | null> {
  const { rows } = await db.query<SubscriptionRow>(
    `${SELECT} WHERE s.organization_id = $1 AND s.id = $2 FOR UPDATE OF s`,
    [organizationId, id],
  );
  return rows[0] ?? null;
}
