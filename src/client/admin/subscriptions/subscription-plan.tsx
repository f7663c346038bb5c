// A subscription's plan on its screen (docs/dashboard.md, "Subscriptions"): a prepaid plan's periods, or a plan
// priced by cycle (trial, discounted cycles, an end): where it is now and what its next charge will be.
import type { Subscription } from '../../../contract/merchant.js';
import { formatDate, formatMoney } from '../kit/format.js';
import { everyInterval } from './subscription-filters.js';
import { cycleOfPlan, planStage, prepaidState } from './subscription-plan-words.js';

function PrepaidPlan({ subscription: s }: { subscription: Subscription }) {
  const state = prepaidState(s);
  if (!state) return null;
  const money = (amount: number) => formatMoney(amount, s.currency);
  const lastPaid = state.cyclesPaid;
  return (
    <section className="admin-card" aria-labelledby="subscription-prepaid">
      <h2 id="subscription-prepaid">Prepaid plan</h2>
      <dl className="subscription-facts">
        <dt>Each payment</dt>
        <dd>
          {state.cyclesPerPeriod} cycles, one shipped {everyInterval(state.intervalDays)}
        </dd>
        <dt>Cycles paid for</dt>
        <dd>
          {state.cyclesPaid} (period {state.period})
        </dd>
        <dt>Cycles shipped</dt>
        <dd>
          {state.cyclesShipped} (cycle {state.cycleInPeriod} of {state.cyclesPerPeriod} of period{' '}
          {state.period})
        </dd>
        <dt>Next delivery</dt>
        <dd>
          {state.nextDelivery
            ? `Cycle ${state.nextDelivery.cycle}, ${formatDate(state.nextDelivery.at)}, as a $0 fulfilment order`
            : 'None before the next charge'}
        </dd>
        <dt>At the end of the period</dt>
        <dd>
          {state.renews
            ? `Renews: the next ${state.cyclesPerPeriod} cycles are charged at once`
            : `Ends after cycle ${lastPaid}: nothing more is charged`}
        </dd>
        <dt>Next charge</dt>
        <dd data-prepaid-next-charge>
          {state.nextCharge
            ? `${formatDate(state.nextCharge.at)}, ${money(state.nextCharge.amount)} for cycles ${state.nextCharge.cycle} to ${state.nextCharge.cycle + state.cyclesPerPeriod - 1}`
            : state.renews
              ? 'None while it is paused, cancelled or ending'
              : 'None: the plan ends with this period'}
        </dd>
      </dl>
    </section>
  );
}

function PlanByCycle({ subscription: s }: { subscription: Subscription }) {
  const plan = s.billing_plan;
  if (!plan || plan.prepaid || !plan.has_special_cycles) return null;
  const next = s.next_cycle;
  return (
    <section className="admin-card" aria-labelledby="subscription-plan">
      <h2 id="subscription-plan">Prices by cycle</h2>
      <dl className="subscription-facts">
        <dt>Plan</dt>
        <dd>{plan.description}</dd>
        <dt>Cycle now</dt>
        <dd>
          {cycleOfPlan(s.cycle, plan.total_cycles)}, {planStage(plan, s.cycle).toLowerCase()}
        </dd>
        <dt>Next charge</dt>
        <dd>
          {next
            ? `Cycle ${next.cycle} (${planStage(plan, next.cycle).toLowerCase()}): ${formatMoney(next.amount, s.currency)}${next.is_last ? ', the last' : ''}`
            : s.end_reason === 'plan_completed'
              ? 'None: the plan is complete'
              : 'None'}
        </dd>
        {s.plan_remaining ? (
          <>
            <dt>Still to charge</dt>
            <dd>{s.plan_remaining}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** The subscription's plan, when it is more than one charge every interval. */
export function SubscriptionPlan(props: { subscription: Subscription }) {
  return props.subscription.prepaid ? <PrepaidPlan {...props} /> : <PlanByCycle {...props} />;
}
