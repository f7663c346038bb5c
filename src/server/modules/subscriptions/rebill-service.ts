import type { Logger } from 'pino';
import { DEFAULT_DUNNING, parseDunning, type Dunning } from '../../../contract/organization.js';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { DECLINE_MESSAGES } from '../../platform/payments/decline-messages.js';
import type { ChargeResult } from '../../platform/payments/gateway.js';
import { gatewayForStoredMethod, type PaymentGateways } from '../../platform/payments/select-gateway.js';
import {
  claimDueSubscriptions,
  endScheduledCancels,
  endSubscriptionPlan,
  insertSubscriptionCharge,
  scheduleSubscription,
  type DueSubscriptionRow,
} from './subscriptions-repository.js';
import { nextDunningStep, type DunningEnd } from './dunning.js';
import { parseStoredPlan, planCycle, type PlanCycle } from '../../../domain/billing-plan.js';
import { minor } from '../../../domain/money.js';
import { emitSubscriptionEvent } from './subscription-events.js';
import { fulfilPrepaidCycle } from './prepaid-fulfilment.js';
import { prepaidStep, type PrepaidStep } from '../../../domain/prepaid-plan.js';

const DAY_MS = 86_400_000;
/**
 * An organization that never set its dunning retries a declined renewal after 1, 3 and 7 days, then marks the
 * subscription past due (docs/operations.md, "Dunning").
 */
export const RETRY_SCHEDULE_DAYS: readonly number[] = DEFAULT_DUNNING.retry_days;
/** A gateway that did not answer charged nothing: try again soon, without counting it as a decline. */
const ERROR_RETRY_MS = 60 * 60 * 1000;
/** How long a runner holds a claimed subscription while it charges it. */
const LEASE_MS = 10 * 60 * 1000;

export interface RebillDependencies {
  db: Database;
  gateways: PaymentGateways;
  clock: Clock;
  logger?: Pick<Logger, 'info' | 'warn'>;
  batchSize?: number;
  /** Told each recorded outcome (the server's metrics). */
  onOutcome?: (outcome: { status: RebillResult['status']; pastDue: boolean }) => void;
}

export interface RebillSummary {
  approved: number;
  declined: number;
  errors: number;
  pastDue: number;
  /** ended by the organization's dunning as cancelled or paused (after_last_retry) */
  cancelled: number;
  paused: number;
  /** cancelled at the end of their period, as the subscriber asked (docs/subscriptions.md, "Self-service") */
  endedAsScheduled: number;
  /** prepaid cycles shipped as $0 fulfilment orders (docs/subscriptions.md, "Prepaid plans") */
  fulfilled: number;
}

const END_EVENTS = {
  past_due: 'subscription.past_due',
  cancelled: 'subscription.cancelled',
  paused: 'subscription.paused',
} as const satisfies Record<DunningEnd, Parameters<typeof emitSubscriptionEvent>[3]>;

type RebillResult = Exclude<ChargeResult, { status: 'requires_action' }>;

/**
 * Nobody is on the page to authenticate an off-session charge: a processor that asks for it has declined it for now
 * (the subscriber must come back), as docs/payments.md says.
 */
export function offSession(result: ChargeResult): RebillResult {
  if (result.status !== 'requires_action') return result;
  return {
    status: 'declined',
    code: 'authentication_required',
    message: DECLINE_MESSAGES.authentication_required,
    reference: result.reference,
  };
}

/**
 * The cycle a due subscription charges now (its last paid cycle + 1), from the plan it kept (docs/subscriptions.md,
 * "Prices by cycle"): its amount, its length and whether it is the last. A subscription made before prices by cycle
 * charges its cycle amount every interval. Null when its plan has no such cycle: nothing is charged.
 */
export function cycleToCharge(
  subscription: Pick<DueSubscriptionRow, 'cycle' | 'cycle_amount' | 'interval_days' | 'billing_plan'>,
): PlanCycle | null {
  const plan = parseStoredPlan(subscription.billing_plan);
  const cycle = subscription.cycle + 1;
  if (!plan) {
    return {
      cycle,
      amount: minor(subscription.cycle_amount),
      days: subscription.interval_days,
      isLast: false,
    };
  }
  return planCycle(plan, cycle);
}

/** What the cycle after `charged` charges: the subscription's next charge, or null when `charged` is the last. */
function amountAfter(
  subscription: Pick<DueSubscriptionRow, 'billing_plan'>,
  charged: PlanCycle,
): number | null {
  const plan = parseStoredPlan(subscription.billing_plan);
  if (!plan) return charged.amount;
  return planCycle(plan, charged.cycle + 1)?.amount ?? null;
}

async function chargeOne(
  deps: RebillDependencies,
  subscription: DueSubscriptionRow,
  charged: PlanCycle,
): Promise<RebillResult> {
  const gateway = subscription.pm_gateway
    ? gatewayForStoredMethod(deps.gateways, subscription.pm_gateway)
    : null;
  if (!gateway || !subscription.pm_token) {
    return {
      status: 'declined',
      code: 'payment_declined',
      message: 'No stored payment method can be charged.',
      reference: null,
    };
  }
  const cycle = charged.cycle;
  const attempt = subscription.attempts_this_cycle + 1;
  try {
    return offSession(
      await gateway.charge({
        amount: charged.amount,
        currency: subscription.currency,
        source: { kind: 'stored', token: subscription.pm_token, customerReference: subscription.pm_customer },
        storeForFuture: true,
        // From the recorded attempts: a runner that crashed after charging retries with the same key.
        idempotencyKey: `sub_${subscription.organization_id}_${subscription.id}_cycle_${cycle}_attempt_${attempt}`,
        description: `Subscription ${subscription.id}, cycle ${cycle}`,
        organizationId: subscription.organization_id,
      }),
    );
  } catch {
    return { status: 'error', message: 'The payment service did not answer.', retryable: true };
  }
}

/** Where the subscription goes after an attempt: its next charge date, a retry, or the end of its dunning. */
export function nextSchedule(
  subscription: Pick<DueSubscriptionRow, 'next_charge_at' | 'interval_days' | 'retry_count'> & {
    /** the charged cycle's length (docs/subscriptions.md, "Prices by cycle"); the interval when absent */
    cycleDays?: number;
  },
  result: Pick<RebillResult, 'status'> & { hard?: boolean | undefined },
  dunning: Dunning,
  now: Date,
): { approved: boolean; nextChargeAt: Date; retryCount: number; end: DunningEnd | null } {
  if (result.status === 'approved') {
    // The next cycle is one cycle's length after this one was due; after downtime, one length from now (no
    // catch-up).
    const length = (subscription.cycleDays ?? subscription.interval_days) * DAY_MS;
    const fromDue = subscription.next_charge_at.getTime() + length;
    const next = fromDue > now.getTime() ? fromDue : now.getTime() + length;
    return { approved: true, nextChargeAt: new Date(next), retryCount: 0, end: null };
  }
  if (result.status === 'error') {
    return {
      approved: false,
      nextChargeAt: new Date(now.getTime() + ERROR_RETRY_MS),
      retryCount: subscription.retry_count,
      end: null,
    };
  }
  const step = nextDunningStep({
    retriesSoFar: subscription.retry_count,
    dunning,
    hard: result.hard ?? false,
    now,
  });
  const retryCount = subscription.retry_count + 1;
  if (step.kind === 'retry') return { approved: false, nextChargeAt: step.at, retryCount, end: null };
  return { approved: false, nextChargeAt: subscription.next_charge_at, retryCount, end: step.kind };
}

/** Ends a claimed subscription whose plan has no cycle left to charge, as its last charge would have. */
async function endCompletedPlan(deps: RebillDependencies, subscription: DueSubscriptionRow): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const completed = await endSubscriptionPlan(tx, subscription.organization_id, subscription.id, now);
    if (completed) {
      await emitSubscriptionEvent(
        tx,
        subscription.organization_id,
        subscription.id,
        'subscription.cancelled',
        `${subscription.cycle}`,
        now,
      );
    }
  });
}

/** What a due prepaid subscription does now (fulfil, charge, end); null for any other subscription. */
export function prepaidStepOf(
  subscription: Pick<DueSubscriptionRow, 'billing_plan' | 'prepaid_shipped_cycle'>,
): PrepaidStep | null {
  const plan = parseStoredPlan(subscription.billing_plan);
  if (!plan?.prepaid || subscription.prepaid_shipped_cycle === null) return null;
  return prepaidStep({ ...plan, prepaid: plan.prepaid }, subscription.prepaid_shipped_cycle);
}

/** Ships a prepaid cycle as a $0 order and moves the subscription on, in one transaction; false when done already. */
async function fulfilOne(
  deps: RebillDependencies,
  subscription: DueSubscriptionRow,
  step: { cycle: number; endsPlan: boolean },
): Promise<boolean> {
  const now = deps.clock.now();
  const { nextChargeAt } = nextSchedule(
    { ...subscription, cycleDays: subscription.interval_days },
    { status: 'approved' },
    DEFAULT_DUNNING,
    now,
  );
  // A failure rolls the whole cycle back (no order, the subscription not moved): its lease lapses and a later run
  // ships it; the other subscriptions of this run go on.
  const order = await deps.db
    .transaction(async (tx) => {
      const made = await fulfilPrepaidCycle(tx, subscription, step, { nextChargeAt, now });
      // The last cycle of a plan that does not renew is shipped: it ends (docs/subscriptions.md, "Prepaid plans").
      if (made && step.endsPlan) {
        await emitSubscriptionEvent(
          tx,
          subscription.organization_id,
          subscription.id,
          'subscription.cancelled',
          `prepaid:${step.cycle}`,
          now,
        );
      }
      return made;
    })
    .catch((error: unknown) => {
      deps.logger?.warn(
        { subscription: subscription.id, cycle: step.cycle, error: String(error) },
        'prepaid fulfilment failed; a later run retries it',
      );
      return null;
    });
  deps.logger?.info(
    { subscription: subscription.id, cycle: step.cycle, order: order?.id ?? null },
    'prepaid fulfilment',
  );
  return order !== null;
}

/**
 * Charges every due subscription once. Several runners (processes, instances) may run at the same time: each claims
 * due rows with FOR UPDATE SKIP LOCKED and a lease, charges outside any transaction, and records the attempt once
 * (a unique (subscription, cycle, attempt)), so each due subscription is charged once.
 */
export async function runRebills(deps: RebillDependencies): Promise<RebillSummary> {
  const summary: RebillSummary = {
    approved: 0,
    declined: 0,
    errors: 0,
    pastDue: 0,
    cancelled: 0,
    paused: 0,
    endedAsScheduled: 0,
    fulfilled: 0,
  };
  // A cancel scheduled for the end of the period ends it before anything is charged: its subscription is not claimed.
  summary.endedAsScheduled = await deps.db.transaction(async (tx) => {
    const ended = await endScheduledCancels(tx, deps.clock.now());
    for (const subscription of ended) {
      await emitSubscriptionEvent(
        tx,
        subscription.organization_id,
        subscription.id,
        'subscription.cancelled',
        String(subscription.cancelled_at.getTime()),
        deps.clock.now(),
      );
    }
    return ended.length;
  });
  for (;;) {
    const now = deps.clock.now();
    const claimed = await deps.db.transaction((tx) =>
      claimDueSubscriptions(tx, {
        now,
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        limit: deps.batchSize ?? 20,
      }),
    );
    if (claimed.length === 0) return summary;
    for (const subscription of claimed) {
      const prepaid = prepaidStepOf(subscription);
      if (prepaid?.kind === 'fulfil') {
        if (await fulfilOne(deps, subscription, prepaid)) summary.fulfilled++;
        continue;
      }
      const charged = prepaid?.kind === 'end' ? null : cycleToCharge(subscription);
      if (!charged) {
        // Its plan ended with its last paid cycle: it is never charged again.
        await endCompletedPlan(deps, subscription);
        continue;
      }
      const result = await chargeOne(deps, subscription, charged);
      const recordedAt = deps.clock.now();
      // A prepaid payment starts its period: its next date is the period's next cycle, a fulfilment.
      const schedule = nextSchedule(
        { ...subscription, cycleDays: prepaid ? subscription.interval_days : charged.days },
        result,
        parseDunning(subscription.org_dunning),
        recordedAt,
      );
      const cycle = charged.cycle;
      const recorded = await deps.db.transaction(async (tx) => {
        const inserted = await insertSubscriptionCharge(tx, {
          organizationId: subscription.organization_id,
          subscriptionId: subscription.id,
          cycle,
          attempt: subscription.attempts_this_cycle + 1,
          amount: charged.amount,
          status: result.status,
          message: result.status === 'approved' ? null : result.message,
          reference: result.status === 'error' ? null : result.reference,
          now: recordedAt,
        });
        if (!inserted) return null;
        const { ended, completed } = await scheduleSubscription(tx, {
          organizationId: subscription.organization_id,
          subscriptionId: subscription.id,
          chargedCycle: cycle,
          ...schedule,
          nextCycleAmount: amountAfter(subscription, charged),
          planCompleted: charged.isLast && !prepaid,
          shippedCycle: prepaid?.kind === 'charge' ? prepaid.cycle : null,
          now: recordedAt,
        });
        const emit = (
          type: Parameters<typeof emitSubscriptionEvent>[3],
          occurrence: string,
          options?: Parameters<typeof emitSubscriptionEvent>[6],
        ) =>
          emitSubscriptionEvent(
            tx,
            subscription.organization_id,
            subscription.id,
            type,
            occurrence,
            recordedAt,
            options,
          );
        const attempt = subscription.attempts_this_cycle + 1;
        if (result.status === 'approved') {
          await emit('subscription.renewed', `${cycle}`, { charged: { cycle, amount: charged.amount } });
        } else await emit('subscription.payment_failed', `${cycle}:${attempt}`);
        // The last cycle of its plan is paid: it ends, and nothing more is charged (docs/subscriptions.md).
        if (completed) await emit('subscription.cancelled', `${cycle}`);
        if (ended && schedule.end)
          await emit(END_EVENTS[schedule.end], `${cycle}:${attempt}`, { cause: 'dunning' });
        return { ended };
      });
      if (!recorded) continue;
      const pastDue = recorded.ended && schedule.end === 'past_due';
      if (result.status === 'approved') summary.approved++;
      else if (result.status === 'declined') summary.declined++;
      else summary.errors++;
      if (pastDue) summary.pastDue++;
      else if (recorded.ended && schedule.end === 'cancelled') summary.cancelled++;
      else if (recorded.ended && schedule.end === 'paused') summary.paused++;
      deps.onOutcome?.({ status: result.status, pastDue });
      deps.logger?.info(
        {
          subscription: subscription.id,
          cycle,
          outcome: result.status,
          dunningEnd: recorded.ended ? schedule.end : null,
        },
        'subscription rebill',
      );
    }
  }
}
