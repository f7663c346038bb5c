import { useEffect, useRef, useState } from 'react';
import type { SubscriberSubscription } from '../../contract/subscriber.js';
import { money } from '../checkout/format.js';
import { Button } from '../ui/button.js';
import { useAnnounce } from '../ui/live-region.js';
import { CardUpdate } from './card-update.js';
import type { SubscriberAction, SubscriberAnswer } from './subscriber-api.js';
import {
  cancelConsequence,
  cardText,
  CHARGE_LABELS,
  dayText,
  intervalText,
  statusLabel,
  statusText,
} from './subscription-wording.js';

type Act = (action: SubscriberAction, body?: Record<string, unknown>) => Promise<SubscriberAnswer>;

/** What the page said after the last action: its words, and whether it went through. */
type Result = { ok: boolean; message: string } | null;

const DONE: Record<SubscriberAction, (subscription: SubscriberSubscription) => string> = {
  pause: () => 'Your subscription is paused. You will not be charged until you resume it.',
  resume: (s) => `Your subscription is active again. ${statusText(s)}`,
  skip: (s) => `The next charge is skipped. ${statusText(s)}`,
  cancel: (s) =>
    s.status === 'cancelled'
      ? 'Your subscription is canceled. You will not be charged again.'
      : `Your subscription is canceled. ${statusText(s)}`,
  card: (s) => `Your new card is saved: ${cardText(s.card)}.`,
};

/** The subscription, its charges and what the subscriber can do with it; focus goes to each action's result. */
export function SubscriptionView(props: { subscription: SubscriberSubscription; act: Act }) {
  const { subscription } = props;
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>(null);
  const [step, setStep] = useState<'none' | 'confirm-cancel' | 'card'>('none');
  const resultRef = useRef<HTMLDivElement>(null);
  const confirmRef = useRef<HTMLHeadingElement>(null);
  const cardRef = useRef<HTMLHeadingElement>(null);
  const resultCount = useRef(0);
  const [shownResult, setShownResult] = useState(0);

  // Focus follows the page: to the result of an action, to the question before a cancel, to the card form.
  useEffect(() => {
    if (shownResult > 0) resultRef.current?.focus();
  }, [shownResult]);
  useEffect(() => {
    if (step === 'confirm-cancel') confirmRef.current?.focus();
    if (step === 'card') cardRef.current?.focus();
  }, [step]);

  async function run(action: SubscriberAction, body?: Record<string, unknown>) {
    setBusy(true);
    finish(action, await props.act(action, body));
  }

  function finish(action: SubscriberAction, answer: SubscriberAnswer) {
    setBusy(false);
    const next: Result = answer.ok
      ? { ok: true, message: DONE[action](answer.subscription) }
      : { ok: false, message: answer.message };
    setStep('none');
    setResult(next);
    announce(next.message);
    resultCount.current += 1;
    setShownResult(resultCount.current);
  }

  const active = subscription.status === 'active' && subscription.cancel_at === null;
  const ending = subscription.status === 'active' && subscription.cancel_at !== null;
  const open = subscription.status !== 'cancelled';
  // A plan priced by cycle changes its price later: the server's words say what is left (docs/subscriptions.md).
  const price =
    subscription.plan_remaining ??
    `${money(subscription.cycle_amount, subscription.currency, 'en')} ${intervalText(subscription.interval_days)}`;

  return (
    <div className="manage">
      <h2 className="manage__title">Your subscription</h2>
      {result ? (
        <div
          ref={resultRef}
          tabIndex={-1}
          className={`notice ${result.ok ? 'notice--success' : 'notice--error'}`}
          data-result={result.ok ? 'done' : 'refused'}
        >
          <p>{result.message}</p>
        </div>
      ) : null}

      <section className="section manage__section" aria-labelledby="subscription-details">
        <h3 id="subscription-details" className="manage__heading">
          {subscription.item_name}
          {subscription.quantity > 1 ? ` × ${subscription.quantity}` : ''}
        </h3>
        <p className="manage__status" data-status={subscription.status}>
          <span className={`manage__badge manage__badge--${ending ? 'ending' : subscription.status}`}>
            {statusLabel(subscription)}
          </span>{' '}
          {statusText(subscription)}
        </p>
        <dl className="manage__facts">
          <div>
            <dt>Price</dt>
            <dd>{price}</dd>
          </div>
          <div>
            <dt>Next charge</dt>
            <dd>{subscription.next_charge_at ? dayText(subscription.next_charge_at) : 'None scheduled'}</dd>
          </div>
          <div>
            <dt>Card</dt>
            <dd>{cardText(subscription.card)}</dd>
          </div>
        </dl>
      </section>

      {open ? (
        <section className="section manage__section" aria-labelledby="subscription-actions">
          <h3 id="subscription-actions" className="manage__heading">
            Manage
          </h3>
          {step === 'confirm-cancel' ? (
            <div className="manage__confirm">
              <h4 ref={confirmRef} tabIndex={-1} className="manage__confirm-title">
                Cancel your subscription?
              </h4>
              <p>{cancelConsequence(subscription)}</p>
              <div className="manage-actions">
                <Button disabled={busy} onClick={() => void run('cancel')}>
                  Yes, cancel my subscription
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => setStep('none')}>
                  No, keep it
                </Button>
              </div>
            </div>
          ) : step === 'card' && subscription.card_processor ? (
            <div className="manage__card">
              <h4 ref={cardRef} tabIndex={-1} className="manage__confirm-title">
                Update your card
              </h4>
              {subscription.status === 'past_due' ? (
                <p>Your card will be charged the amount due at the next renewal run.</p>
              ) : null}
              <CardUpdate
                processor={subscription.card_processor}
                currency={subscription.currency}
                busy={busy}
                save={(token, authenticated) => {
                  setBusy(true);
                  return props.act('card', {
                    card_token: token,
                    ...(authenticated === undefined ? {} : { authenticated }),
                  });
                }}
                done={(answer) => finish('card', answer)}
                onCancel={() => setStep('none')}
              />
            </div>
          ) : (
            <div className="manage-actions">
              {active ? (
                <Button
                  variant="secondary"
                  disabled={busy}
                  onClick={() => void run('skip', { next_charge_at: subscription.next_charge_at })}
                >
                  Skip the next charge
                </Button>
              ) : null}
              {active ? (
                <Button variant="secondary" disabled={busy} onClick={() => void run('pause')}>
                  Pause subscription
                </Button>
              ) : null}
              {subscription.status === 'paused' ? (
                <Button disabled={busy} onClick={() => void run('resume')}>
                  Resume subscription
                </Button>
              ) : null}
              {ending ? (
                <Button disabled={busy} onClick={() => void run('resume')}>
                  Keep my subscription
                </Button>
              ) : null}
              {subscription.card_processor ? (
                <Button variant="secondary" disabled={busy} onClick={() => setStep('card')}>
                  Update card
                </Button>
              ) : null}
              {!ending ? (
                <Button variant="secondary" disabled={busy} onClick={() => setStep('confirm-cancel')}>
                  Cancel subscription
                </Button>
              ) : null}
            </div>
          )}
        </section>
      ) : null}

      <section className="section manage__section" aria-labelledby="subscription-charges">
        <h3 id="subscription-charges" className="manage__heading">
          Charges
        </h3>
        {subscription.charges.length === 0 ? (
          <p>No renewal charges yet.</p>
        ) : (
          <div className="manage__table-wrap">
            <table className="manage__charges">
              <caption className="visually-hidden">Renewal charges, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {subscription.charges.map((charge, index) => (
                  <tr key={`${charge.created_at}-${index}`}>
                    <td>{dayText(charge.created_at)}</td>
                    <td>{money(charge.amount, subscription.currency, 'en')}</td>
                    <td>{CHARGE_LABELS[charge.status]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
