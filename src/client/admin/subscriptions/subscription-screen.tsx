// One subscription (docs/dashboard.md, "Subscriptions"): its state, next charge, charges and where it came from; the
// changes its state allows (skip, pause, resume, cancel after a confirmation), a self-service link to pass on, and
// who changed it in the dashboard.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { SubscriptionSchema, type Subscription } from '../../../contract/merchant.js';
import { ManageLinkSchema } from '../../../contract/subscriber.js';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';
import { ApiFailure, request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { AuditTrail, auditKey } from '../kit/audit-trail.js';
import { formatDate, formatDateTime, formatMoney } from '../kit/format.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { CopyValue } from './copy-value.js';
import { SubscriptionPlan } from './subscription-plan.js';
import { chargeIntervalOf, prepaidState } from './subscription-plan-words.js';
import {
  actionsFor,
  everyInterval,
  STATUS_LABELS,
  upcomingCharge,
  type SubscriptionAction,
} from './subscription-filters.js';
import { subscriptionsKey } from './subscription-list-screen.js';

const subscriptionKey = (id: number) => [...subscriptionsKey, 'one', id] as const;

const ACTION_LABELS: Record<Exclude<SubscriptionAction, 'cancel'>, string> = {
  skip: 'Skip the next charge',
  pause: 'Pause',
  resume: 'Resume',
};

function paymentMethodText(method: Subscription['payment_method']): string {
  if (!method) return 'None';
  if (method.method === 'paypal') return 'PayPal';
  if (method.method === 'card') {
    const brand = method.card_brand
      ? method.card_brand[0]?.toUpperCase() + method.card_brand.slice(1)
      : 'Card';
    return method.card_last4 ? `${brand} ending ${method.card_last4}` : brand;
  }
  return method.method;
}

/** What a change did, in words a person can check against the screen. */
function resultOf(action: SubscriptionAction, after: Subscription): string {
  const next = upcomingCharge(after);
  switch (action) {
    case 'skip':
      return next
        ? `The next charge is skipped: it is now on ${formatDate(next)}.`
        : 'The next charge is skipped.';
    case 'pause':
      return 'Paused: it will not be charged until it is resumed.';
    case 'resume':
      return next ? `Resumed: the next charge is on ${formatDate(next)}.` : 'Resumed.';
    case 'cancel':
      return 'Cancelled: it will not be charged again.';
  }
}

function Facts(props: { subscription: Subscription }) {
  const s = props.subscription;
  const next = upcomingCharge(s);
  // A prepaid plan's next date often ships a $0 cycle: its next charge is the next period's.
  const prepaid = prepaidState(s);
  return (
    <div className="admin-grid">
      <section className="admin-card" aria-labelledby="subscription-state">
        <h2 id="subscription-state">State</h2>
        <dl className="subscription-facts">
          <dt>Status</dt>
          <dd>
            {STATUS_LABELS[s.status]}
            {s.is_test ? (
              <>
                {' '}
                <span className="admin-badge">Test</span>
              </>
            ) : null}
          </dd>
          {s.cancel_at ? (
            <>
              <dt>Ends on</dt>
              <dd>{formatDate(s.cancel_at)} (a cancel is scheduled for the end of its paid period)</dd>
            </>
          ) : null}
          {s.status === 'paused' && s.paused_at ? (
            <>
              <dt>Paused since</dt>
              <dd>{formatDateTime(s.paused_at)}</dd>
            </>
          ) : null}
          {s.cancelled_at ? (
            <>
              <dt>Cancelled on</dt>
              <dd>{formatDateTime(s.cancelled_at)}</dd>
            </>
          ) : null}
          <dt>Last changed by</dt>
          <dd>
            {s.changed_by === 'merchant'
              ? 'The store'
              : s.changed_by === 'subscriber'
                ? 'The subscriber, on their self-service page'
                : 'No one yet'}
          </dd>
        </dl>
      </section>
      <section className="admin-card" aria-labelledby="subscription-charge">
        <h2 id="subscription-charge">Charges</h2>
        <dl className="subscription-facts">
          <dt>Next charge</dt>
          <dd data-next-charge>
            {prepaid
              ? prepaid.nextCharge
                ? `${formatDate(prepaid.nextCharge.at)}, ${formatMoney(prepaid.nextCharge.amount, s.currency)}`
                : 'None (see the prepaid plan)'
              : next
                ? `${formatDate(next)}, ${formatMoney(s.cycle_amount, s.currency)}`
                : s.status === 'cancelled'
                  ? 'None: it is cancelled'
                  : s.status === 'paused'
                    ? 'None while it is paused'
                    : 'None: it ends before then'}
          </dd>
          <dt>{s.plan_remaining ? 'Charges left' : 'Each cycle'}</dt>
          <dd>
            {s.plan_remaining ??
              `${formatMoney(s.cycle_amount, s.currency)} ${everyInterval(chargeIntervalOf(s))}`}
            {s.subscribe_and_save
              ? ` (subscribe and save: ${s.subscribe_and_save_percent_off ?? 0} % off the one-off price)`
              : ''}
          </dd>
          <dt>Cycle</dt>
          <dd>
            {s.cycle}
            {s.retry_count > 0 ? ` (${s.retry_count} failed attempts at this cycle's charge)` : ''}
          </dd>
          <dt>Payment method</dt>
          <dd>{paymentMethodText(s.payment_method)}</dd>
        </dl>
      </section>
      <section className="admin-card" aria-labelledby="subscription-origin">
        <h2 id="subscription-origin">Customer</h2>
        <dl className="subscription-facts">
          <dt>Email</dt>
          <dd className="subscriptions-email">{s.customer_email}</dd>
          <dt>Started</dt>
          <dd>{formatDateTime(s.created_at)}</dd>
          <dt>From order</dt>
          <dd>
            <AdminLink to={`/admin/orders/${s.order_id}`}>Order {s.order_id}</AdminLink>
          </dd>
        </dl>
      </section>
    </div>
  );
}

function Actions(props: { subscription: Subscription }) {
  const { subscription } = props;
  const client = useQueryClient();
  const announce = useAnnounce();
  const [result, setResult] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const resultRef = useRef<HTMLParagraphElement>(null);
  const confirmRef = useRef<HTMLParagraphElement>(null);
  const refusalRef = useRef<HTMLParagraphElement>(null);
  const change = useMutation({
    mutationFn: (action: SubscriptionAction) =>
      request(
        SubscriptionSchema,
        'POST',
        `/checkout/api/merchant/subscriptions/${subscription.id}/${action}`,
        {},
      ),
    onMutate: () => setResult(null),
    // A refusal means the screen was behind (a change made elsewhere): show the subscription as it is now.
    onError: () => client.invalidateQueries({ queryKey: subscriptionKey(subscription.id) }),
    onSuccess: (after, action) => {
      client.setQueryData(subscriptionKey(subscription.id), after);
      void client.invalidateQueries({ queryKey: [...subscriptionsKey, 'list'] });
      void client.invalidateQueries({ queryKey: auditKey('subscription', subscription.id) });
      const said = resultOf(action, after);
      setConfirming(false);
      setResult(said);
      announce(said);
    },
  });
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  // The button pressed may go as the screen catches up with the refusal: the focus goes to the server's words.
  useEffect(() => {
    if (change.error) refusalRef.current?.focus();
  }, [change.error]);
  const actions = actionsFor(subscription);
  const refusal =
    change.error instanceof ApiFailure
      ? change.error.message
      : change.error
        ? 'Something went wrong. Try again.'
        : null;
  return (
    <section className="admin-card" aria-labelledby="subscription-actions">
      <h2 id="subscription-actions">Change it</h2>
      {result ? (
        <p className="subscription-result" ref={resultRef} tabIndex={-1} data-result>
          {result}
        </p>
      ) : null}
      {refusal ? (
        <p className="subscription-refusal" role="alert" ref={refusalRef} tabIndex={-1}>
          {refusal}
        </p>
      ) : null}
      {actions.length === 0 ? (
        <p>A cancelled subscription cannot be changed: the customer subscribes again to start a new one.</p>
      ) : (
        <div className="admin-actions">
          {actions
            .filter((action) => action !== 'cancel')
            .map((action) => (
              <Button
                key={action}
                variant="secondary"
                disabled={change.isPending}
                onClick={() => change.mutate(action)}
              >
                {ACTION_LABELS[action as Exclude<SubscriptionAction, 'cancel'>]}
              </Button>
            ))}
          {actions.includes('cancel') && !confirming ? (
            <Button
              id="cancel-subscription"
              variant="secondary"
              disabled={change.isPending}
              onClick={() => setConfirming(true)}
            >
              Cancel the subscription
            </Button>
          ) : null}
        </div>
      )}
      {confirming ? (
        <div className="subscription-confirm" role="group" aria-labelledby="cancel-confirm">
          <p id="cancel-confirm" ref={confirmRef} tabIndex={-1}>
            Cancelling is final: {subscription.customer_email} will not be charged again, and the subscription
            cannot be resumed.
          </p>
          <div className="admin-actions">
            <Button disabled={change.isPending} onClick={() => change.mutate('cancel')}>
              {change.isPending ? 'Cancelling…' : 'Yes, cancel it'}
            </Button>
            <Button
              variant="secondary"
              disabled={change.isPending}
              onClick={() => {
                setConfirming(false);
                requestAnimationFrame(() => document.getElementById('cancel-subscription')?.focus());
              }}
            >
              Keep the subscription
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function SelfServiceLink(props: { id: number }) {
  const announce = useAnnounce();
  const make = useMutation({
    mutationFn: () =>
      request(ManageLinkSchema, 'POST', `/checkout/api/merchant/subscriptions/${props.id}/manage-link`, {}),
    onSuccess: () => announce('A self-service link is ready to copy.'),
  });
  return (
    <section className="admin-card admin-stack" aria-labelledby="subscription-link">
      <h2 id="subscription-link">Self-service link</h2>
      <p>
        A link for the subscriber to change their card, skip, pause or cancel on their own. Anyone who has it
        can, so send it only to them.
      </p>
      {make.data ? (
        <div>
          <CopyValue label="Self-service link" value={make.data.url} />
          <p>Works until {formatDateTime(make.data.expires_at)}.</p>
        </div>
      ) : null}
      {make.error ? (
        <p role="alert">
          {make.error instanceof ApiFailure ? make.error.message : 'Something went wrong. Try again.'}
        </p>
      ) : null}
      <div className="admin-actions">
        <Button variant="secondary" disabled={make.isPending} onClick={() => make.mutate()}>
          {make.data ? 'Make another link' : 'Make a self-service link'}
        </Button>
      </div>
    </section>
  );
}

function ChargesTable(props: { subscription: Subscription }) {
  const { subscription } = props;
  return (
    <section className="admin-card" aria-labelledby="subscription-charges">
      <h2 id="subscription-charges">Renewal charges</h2>
      {subscription.charges.length === 0 ? (
        <p>No renewal charge has been made yet: the first cycle was paid with the order.</p>
      ) : (
        <div className="admin-table-wrap subscriptions-scroll">
          <table className="admin-table" aria-labelledby="subscription-charges">
            <thead>
              <tr>
                <th scope="col">Cycle</th>
                <th scope="col">Attempt</th>
                <th scope="col" className="admin-number">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Message</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {subscription.charges.map((charge) => (
                <tr key={`${charge.cycle}-${charge.attempt}`}>
                  <td>{charge.cycle}</td>
                  <td>{charge.attempt}</td>
                  <td className="admin-number">{formatMoney(charge.amount, subscription.currency)}</td>
                  <td>{{ approved: 'Approved', declined: 'Declined', error: 'No answer' }[charge.status]}</td>
                  <td>{charge.message ?? ''}</td>
                  <td>{formatDateTime(charge.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function SubscriptionScreen(props: { id: number }) {
  const subscription = useQuery({
    queryKey: subscriptionKey(props.id),
    queryFn: () => request(SubscriptionSchema, 'GET', `/checkout/api/merchant/subscriptions/${props.id}`),
  });
  return (
    <div className="admin-stack">
      <ScreenHeading>{`Subscription ${props.id}`}</ScreenHeading>
      <p>
        <AdminLink to="/admin/subscriptions">All subscriptions</AdminLink>
      </p>
      {!subscription.data ? (
        <QueryState error={subscription.error} loading="Reading the subscription…" />
      ) : (
        <>
          <Facts subscription={subscription.data} />
          <SubscriptionPlan subscription={subscription.data} />
          <Actions subscription={subscription.data} />
          {subscription.data.status === 'cancelled' ? null : <SelfServiceLink id={props.id} />}
          <ChargesTable subscription={subscription.data} />
          <AuditTrail objectType="subscription" objectId={props.id} />
        </>
      )}
    </div>
  );
}
