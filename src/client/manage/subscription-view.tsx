import { useEffect, useRef, useState } from 'react';
import type { SubscriberSubscription } from '../../contract/subscriber.js';
import { T, useT } from '../i18n/use-t.js';
import { Button } from '../ui/button.js';
import { useAnnounce } from '../ui/live-region.js';
import { CardUpdate } from './card-update.js';
import type { SubscriberAction, SubscriberAnswer } from './subscriber-api.js';
import {
  cancelConsequence,
  cardText,
  chargeLabel,
  dayText,
  moneyText,
  priceText,
  statusLabel,
  statusText,
  type Words,
} from './subscription-wording.js';

type Act = (action: SubscriberAction, body?: Record<string, unknown>) => Promise<SubscriberAnswer>;

/** What the page said after the last action: its words, and whether it went through. */
type Result = { ok: boolean; message: string } | null;

/** What the page says once an action went through. */
function doneText(action: SubscriberAction, s: SubscriberSubscription, words: Words): string {
  const { t } = words;
  switch (action) {
    case 'pause':
      return t('manage.done.pause');
    case 'resume':
      return t('manage.done.resume', { status: statusText(s, words) });
    case 'skip':
      return t('manage.done.skip', { status: statusText(s, words) });
    case 'cancel':
      return s.status === 'cancelled'
        ? t('manage.done.cancelNow')
        : t('manage.done.cancelLater', { status: statusText(s, words) });
    case 'card':
      return t('manage.done.card', { card: cardText(s.card, words) });
  }
}

/** The subscription, its charges and what the subscriber can do with it; focus goes to each action's result. */
export function SubscriptionView(props: { subscription: SubscriberSubscription; act: Act }) {
  const { subscription } = props;
  const words = useT();
  const { t } = words;
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
      ? { ok: true, message: doneText(action, answer.subscription, words) }
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
  const price = subscription.plan_remaining ?? priceText(subscription, words);

  return (
    <div className="manage">
      <h2 className="manage__title">{t('manage.title')}</h2>
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
          {subscription.quantity > 1
            ? t('manage.itemQuantity', { name: subscription.item_name, quantity: subscription.quantity })
            : subscription.item_name}
        </h3>
        <p className="manage__status" data-status={subscription.status}>
          <span className={`manage__badge manage__badge--${ending ? 'ending' : subscription.status}`}>
            {statusLabel(subscription, words)}
          </span>{' '}
          {statusText(subscription, words)}
        </p>
        <dl className="manage__facts">
          <div>
            <dt>{t('manage.price')}</dt>
            <dd>{price}</dd>
          </div>
          <div>
            <dt>{t('manage.nextCharge')}</dt>
            <dd>
              {subscription.next_charge_at
                ? dayText(subscription.next_charge_at, words)
                : t('manage.noneScheduled')}
            </dd>
          </div>
          <div>
            <dt>{t('manage.card')}</dt>
            <dd>{cardText(subscription.card, words)}</dd>
          </div>
        </dl>
        {subscription.subscribe_and_save ? (
          // Subscribe and save: the server's words say the saving of every delivery (docs/subscriptions.md).
          <p className="manage__saving" data-saving>
            <SavingText
              saving={subscription.subscribe_and_save}
              currency={subscription.currency}
              words={words}
            />
          </p>
        ) : null}
      </section>

      {open ? (
        <section className="section manage__section" aria-labelledby="subscription-actions">
          <h3 id="subscription-actions" className="manage__heading">
            {t('manage.manage')}
          </h3>
          {step === 'confirm-cancel' ? (
            <div className="manage__confirm">
              <h4 ref={confirmRef} tabIndex={-1} className="manage__confirm-title">
                {t('manage.confirmCancel')}
              </h4>
              <p>{cancelConsequence(subscription, words)}</p>
              <div className="manage-actions">
                <Button disabled={busy} onClick={() => void run('cancel')}>
                  {t('manage.confirmYes')}
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => setStep('none')}>
                  {t('manage.confirmNo')}
                </Button>
              </div>
            </div>
          ) : step === 'card' && subscription.card_processor ? (
            <div className="manage__card">
              <h4 ref={cardRef} tabIndex={-1} className="manage__confirm-title">
                {t('manage.updateCardTitle')}
              </h4>
              {subscription.status === 'past_due' ? <p>{t('manage.pastDueCard')}</p> : null}
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
                  {t('manage.action.skip')}
                </Button>
              ) : null}
              {active ? (
                <Button variant="secondary" disabled={busy} onClick={() => void run('pause')}>
                  {t('manage.action.pause')}
                </Button>
              ) : null}
              {subscription.status === 'paused' ? (
                <Button disabled={busy} onClick={() => void run('resume')}>
                  {t('manage.action.resume')}
                </Button>
              ) : null}
              {ending ? (
                <Button disabled={busy} onClick={() => void run('resume')}>
                  {t('manage.action.keep')}
                </Button>
              ) : null}
              {subscription.card_processor ? (
                <Button variant="secondary" disabled={busy} onClick={() => setStep('card')}>
                  {t('manage.action.updateCard')}
                </Button>
              ) : null}
              {!ending ? (
                <Button variant="secondary" disabled={busy} onClick={() => setStep('confirm-cancel')}>
                  {t('manage.action.cancel')}
                </Button>
              ) : null}
            </div>
          )}
        </section>
      ) : null}

      <section className="section manage__section" aria-labelledby="subscription-charges">
        <h3 id="subscription-charges" className="manage__heading">
          {t('manage.charges')}
        </h3>
        {subscription.charges.length === 0 ? (
          <p>{t('manage.noCharges')}</p>
        ) : (
          <div className="manage__table-wrap">
            <table className="manage__charges">
              <caption className="visually-hidden">{t('manage.chargesCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('manage.column.date')}</th>
                  <th scope="col">{t('manage.column.amount')}</th>
                  <th scope="col">{t('manage.column.status')}</th>
                </tr>
              </thead>
              <tbody>
                {subscription.charges.map((charge, index) => (
                  <tr key={`${charge.created_at}-${index}`}>
                    <td>{dayText(charge.created_at, words)}</td>
                    <td>{moneyText(charge.amount, subscription.currency, words)}</td>
                    <td>{chargeLabel(charge.status, words)}</td>
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

/** The saving of a subscribe-and-save subscription, in the page's words (docs/subscriptions.md, "Subscribe and save"). */
function SavingText({
  saving,
  currency,
  words,
}: {
  saving: NonNullable<SubscriberSubscription['subscribe_and_save']>;
  currency: string;
  words: ReturnType<typeof useT>;
}) {
  const values = { percent: saving.percent_off, days: saving.interval_days };
  if (saving.subscribed_amount === null || saving.once_amount === null)
    return <T id="manage.saving_percent" values={values} components={[<strong />]} />;
  return (
    <T
      id="manage.saving"
      values={{
        ...values,
        subscribed: moneyText(saving.subscribed_amount, currency, words),
        once: moneyText(saving.once_amount, currency, words),
      }}
      components={[<strong />]}
    />
  );
}
