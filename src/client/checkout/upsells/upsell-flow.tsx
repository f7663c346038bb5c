// The one-click offers after a completed order (docs/api.md, "Upsells"): loaded as a chunk of its own, only for an
// order whose link has upsells. Each offer shows with its countdown; the confirmation follows the last one.
import { useEffect, useRef, useState, type ComponentType } from 'react';
import type { Cart } from '../../../contract/cart.js';
import type { CardProcessorConfig } from '../../../contract/page-config.js';
import type { LinkedOrder, UpsellOffer, UpsellState } from '../../../contract/upsell.js';
import { failureOf } from '../../api/http-client.js';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import { money } from '../format.js';
import { newIdempotencyKey } from '../idempotency-key.js';
import type { Outcome, PaymentAction } from '../payment/processors/card-processor.js';
import { loadCardProcessor, type LoadCardProcessor } from '../payment/processors/load-card-processor.js';
import { countdownAnnouncement, countdownText } from './upsell-rules.js';
import { withLanguage } from '../payment/processors/test-processor-rules.js';
import './upsell.css';
import { T, useT } from '../../i18n/use-t.js';

const stateSchema = () => import('../../../contract/upsell.js').then((module) => module.UpsellStateSchema);

type Confirmation = ComponentType<{ cart: Cart; linked: readonly LinkedOrder[] }>;

export default function UpsellFlow(props: {
  cart: Cart;
  api: CheckoutApi;
  Confirmation: Confirmation;
  /** the page's card processor: its Stripe.js runs the bank's challenge for a Stripe payment */
  cardProcessor?: CardProcessorConfig | undefined;
  loadCardProcessor?: LoadCardProcessor | undefined;
}) {
  const { cart, api, Confirmation, cardProcessor } = props;
  const load = props.loadCardProcessor ?? loadCardProcessor;
  const announce = useAnnounce();
  const { t } = useT();
  const orderId = cart.order.order_id ?? 0;
  const currency = cart.currency_value;
  const path = `carts/${encodeURIComponent(cart.cart_token)}/orders/${orderId}/upsell`;
  const [state, setState] = useState<UpsellState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // What the shopper must know beyond the offer shown now: a no that came after the bank took the yes.
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  // One key per answer to a step: a retry after a lost answer sends the same one, and is never charged twice.
  const keys = useRef(new Map<string, string>());
  // A step whose payment the bank confirmed on the page, until the accept sent with it has its answer: a yes after
  // a lost answer sends that accept again, never a new charge.
  const confirmed = useRef(new Map<number, string>());

  // Each change of `version` reads the offers again (after one ended, or an answer that says it had).
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((value) => value + 1);
  useEffect(() => {
    let live = true;
    api.http.request({ method: 'GET', path, schema: stateSchema }).then(
      (read) => {
        if (live) setState(read);
      },
      () => {
        // The offers could not be read: the order is complete, so the confirmation is what the shopper sees.
        if (live) setState({ order_id: orderId, currency, offer: null, linked_orders: [] });
      },
    );
    return () => {
      live = false;
    };
  }, [api, path, orderId, currency, version]);

  /** The bank's challenge run by the processor's own script (Stripe.js) over the page; nothing to frame. */
  const authenticateOnPage = async (action: PaymentAction): Promise<Outcome> => {
    try {
      const processor = cardProcessor ? await load(cardProcessor) : null;
      if (processor?.authenticate) return await processor.authenticate(action, t);
    } catch {
      // The processor's script could not load: as a failed confirmation, nothing was charged.
    }
    return { ok: false, message: t('funnel.not_authenticated') };
  };

  const answer = async (kind: 'accept' | 'decline', step: number, authenticated?: string): Promise<void> => {
    // A second click while the first is on its way sends nothing.
    if (sending.current) return;
    let confirmedByBank: string | null = null;
    sending.current = true;
    setBusy(true);
    setFailure(null);
    const name = `${kind}:${step}:${authenticated ?? ''}`;
    const key = keys.current.get(name) ?? newIdempotencyKey();
    keys.current.set(name, key);
    try {
      const next = await api.http.request({
        method: 'POST',
        path: `${path}/${kind}`,
        body: authenticated ? { step, authenticated_payment: authenticated } : { step },
        headers: { 'Idempotency-Key': key },
        schema: stateSchema,
      });
      setState(next);
      const action = next.action;
      if (kind === 'accept' && action?.payment_action.type === 'stripe') {
        // Stripe.js shows the bank's challenge; the accept goes again with the payment once it says yes.
        announce(t('funnel.bank_asks'));
        const outcome = await authenticateOnPage(action.payment_action);
        const { action: _shown, ...offered } = next;
        setState(offered);
        if (outcome.ok) {
          confirmedByBank = action.reference;
          confirmed.current.set(step, action.reference);
        } else {
          // That payment cannot go through now: a yes again is a new request, a no declines the offer.
          keys.current.delete(name);
          setFailure(t('funnel.not_authenticated'));
        }
      } else if (kind === 'accept' && !action) {
        confirmed.current.delete(step);
        announce(t('funnel.added'));
      }
    } catch (error) {
      const failed = failureOf(error, t);
      if (failed.status === 410) {
        announce(t('funnel.offer_ended'));
        reload();
      } else if (kind === 'decline' && failed.code === 'upsell_accepted') {
        // The offer was bought (the bank confirmed the yes before the no): the page shows it bought, and says why.
        confirmed.current.delete(step);
        setNotice(failed.message);
        announce(failed.message);
        reload();
      } else {
        // A refusal is the answer to this key: another try is a request of its own.
        if (failed.status < 500) {
          keys.current.delete(name);
          if (authenticated) confirmed.current.delete(step);
        }
        setFailure(failed.message);
      }
    } finally {
      sending.current = false;
      setBusy(false);
    }
    if (confirmedByBank !== null) await answer('accept', step, confirmedByBank);
  };

  if (!state) {
    return (
      <div className="confirmation" aria-busy="true">
        <p role="status">{t('confirmation.one_moment')}</p>
      </div>
    );
  }
  const said = notice ? (
    <p className="notice notice--warning" role="status">
      {notice}
    </p>
  ) : null;
  if (!state.offer) {
    return (
      <>
        {said}
        <Confirmation cart={cart} linked={state.linked_orders} />
      </>
    );
  }
  const offer = state.offer;
  const challenge = state.action?.type === 'authenticate' ? state.action : null;
  return (
    <>
      {said}
      <OfferView
        key={offer.step}
        offer={offer}
        currency={state.currency}
        isTest={cart.order.is_test}
        busy={busy}
        failure={failure}
        challenge={
          challenge
            ? challenge.payment_action.type === 'challenge'
              ? {
                  url: challenge.payment_action.url,
                  onDone: () => void answer('accept', offer.step, challenge.reference),
                }
              : // Stripe.js shows the bank's window itself, and the accept follows its answer.
                { url: null, onDone: null }
            : null
        }
        onAccept={() => void answer('accept', offer.step, confirmed.current.get(offer.step))}
        onDecline={() => void answer('decline', offer.step)}
        onEnded={() => {
          announce(t('funnel.offer_ended'));
          reload();
        }}
      />
    </>
  );
}

function OfferView(props: {
  offer: UpsellOffer;
  currency: string;
  /** a test order's offers move no money either */
  isTest: boolean;
  busy: boolean;
  failure: string | null;
  /** the bank's challenge: framed with a button to say it is done, or (onDone null) shown by the processor's script */
  challenge: { url: string | null; onDone: (() => void) | null } | null;
  onAccept: () => void;
  onDecline: () => void;
  onEnded: () => void;
}) {
  const { offer, currency, busy, failure, challenge } = props;
  const announce = useAnnounce();
  const { t, language, locale } = useT();
  const words = useRef(t);
  useEffect(() => {
    words.current = t;
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const [left, setLeft] = useState(offer.seconds_left);
  const said = useRef(offer.seconds_left);
  const ended = useRef(props.onEnded);
  useEffect(() => {
    ended.current = props.onEnded;
  });

  useEffect(() => {
    heading.current?.focus();
  }, []);

  // Counted against the page's clock from the server's seconds left; the server decides when the offer ended.
  useEffect(() => {
    const deadline = Date.now() + offer.seconds_left * 1000;
    const timer = window.setInterval(() => {
      const now = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const message = countdownAnnouncement(said.current, now, words.current);
      said.current = now;
      if (message) announce(message);
      setLeft(now);
      if (now === 0) {
        window.clearInterval(timer);
        ended.current();
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [offer.seconds_left, announce]);

  const price = (amount: number) => money(amount, currency, locale);
  const charged = {
    amount: price(offer.amount),
    item: price(offer.subtotal),
    shipping: price(offer.shipping),
    tax: price(offer.tax),
  };
  const chargedKey =
    offer.shipping > 0 && offer.tax > 0
      ? 'funnel.price_with_shipping_tax'
      : offer.shipping > 0
        ? 'funnel.price_with_shipping'
        : offer.tax > 0
          ? 'funnel.price_with_tax'
          : 'funnel.price';
  return (
    <section className="confirmation upsell" aria-labelledby="upsell-title">
      <p className="upsell__lead">{t(offer.is_downsell ? 'funnel.lead_downsell' : 'funnel.lead_upsell')}</p>
      <h2 id="upsell-title" className="confirmation__title" ref={heading} tabIndex={-1}>
        {offer.name}
      </h2>
      {offer.image ? <img className="upsell__image" src={offer.image} alt={offer.name} /> : null}
      {offer.text ? <p>{offer.text}</p> : null}
      <p className="upsell__price" id="upsell-price">
        <T id={chargedKey} values={charged} components={[<strong key="amount" />]} />
        {props.isTest ? <> {t('funnel.test_order')}</> : null}
        {offer.recurring ? (
          <>
            {' '}
            {t('funnel.then_recurring', {
              amount: price(offer.recurring.amount),
              days: offer.recurring.interval_days,
            })}
          </>
        ) : null}
      </p>
      <p className="upsell__countdown">
        <T
          id="funnel.offer_ends_in"
          values={{ time: countdownText(left) }}
          components={[<span className="upsell__time" key="time" />]}
        />
      </p>
      {failure ? (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      ) : null}
      {challenge ? (
        <div className="upsell__challenge">
          <p role="alert">{challenge.onDone ? t('funnel.confirm_here') : t('funnel.confirm_in_window')}</p>
          {challenge.url ? (
            <iframe
              className="upsell__challenge-frame"
              src={withLanguage(challenge.url, language)}
              title={t('funnel.bank_frame_title')}
            />
          ) : null}
          {challenge.onDone ? (
            <Button onClick={challenge.onDone} aria-disabled={busy}>
              {t('funnel.confirmed_with_bank')}
            </Button>
          ) : null}
        </div>
      ) : null}
      <div className="upsell__actions">
        <Button onClick={props.onAccept} aria-disabled={busy} aria-describedby="upsell-price">
          {t('funnel.yes_add')}
        </Button>
        <Button variant="secondary" onClick={props.onDecline} aria-disabled={busy}>
          {t('funnel.no_thanks')}
        </Button>
      </div>
    </section>
  );
}
