import { useEffect, useRef, useState } from 'react';
import { afterNextPaint } from '../../boot/after-first-paint.js';
import { fromMajor } from '../../../domain/money.js';
import { cardTypeOf, formatCardNumber } from '../../../domain/card.js';
import { useT } from '../../i18n/use-t.js';
import { describedBy, hintId } from '../../ui/field-ids.js';
import { FieldError } from '../../ui/field-shell.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';
import { CARD_FIELD } from '../section-rules.js';
import type { CardSession } from './card-session.js';
import { CardFieldsBox } from './card-fields-box.js';
import { cardFieldsError } from './payment-rules.js';
import type { CardFieldsState, MountedCardFields } from './processors/card-processor.js';
import { loadCardProcessor } from './processors/load-card-processor.js';

const LABEL_ID = 'card-details-label';

/**
 * The card fields: the configured processor's, mounted in a frame of the processor's origin that the page cannot
 * read (docs/payments.md). The page labels the group, shows the brand, the refusal of other brands and the errors the
 * frame reports, announces them, and lists the test cards in test mode (docs/checkout-rules.md#card-fields).
 */
export function CardFrame({ card }: { card: CardSession }) {
  const checkout = useCheckout();
  const { config, cart, testCards, form, dispatchForm } = checkout;
  const announce = useAnnounce();
  const { t, language } = useT();
  const container = useRef<HTMLDivElement>(null);
  const [attempt, setAttempt] = useState(0);
  const { view, mounted, changed, failed, unmounted } = card;
  const load = checkout.loadCardProcessor ?? loadCardProcessor;
  const processorConfig = config.card_processor;
  const shownError = form.errors[CARD_FIELD];

  // What the frame's changes are checked against; kept current for the handler the adapter holds.
  const amount = fromMajor(cart.total, cart.currency_value) ?? Math.round(cart.total * 100);
  const storeForFuture = cart.order.is_recurring;
  const facts = useRef({
    amount,
    currency: cart.currency_value,
    storeForFuture,
    shownError,
    previous: view.state,
    t,
    language,
  });
  useEffect(() => {
    facts.current.amount = amount;
    facts.current.currency = cart.currency_value;
    facts.current.storeForFuture = storeForFuture;
    facts.current.shownError = shownError;
    facts.current.t = t;
    facts.current.language = language;
  });
  // A processor whose element shows the amount (Stripe's wallets) hears the total as it changes.
  const mountedFields = useRef<MountedCardFields | null>(null);
  useEffect(() => {
    mountedFields.current?.update?.({ amount, currency: cart.currency_value, storeForFuture });
  }, [amount, cart.currency_value, storeForFuture]);
  // The switcher's language reaches the mounted fields in place: mounting them again would lose the card typed in.
  useEffect(() => {
    mountedFields.current?.setLanguage?.(language);
  }, [language]);

  const onChange = useRef((state: CardFieldsState) => {
    const previous = facts.current.previous;
    facts.current.previous = state;
    changed(state);
    const { t } = facts.current;
    // A message on show follows what is typed, as a field's does: fixed, it goes; changed, it says the new one.
    if (facts.current.shownError !== undefined) {
      const error = cardFieldsError({ status: 'ready', state, fillable: false }, t);
      dispatchForm({ type: 'setErrors', names: [CARD_FIELD], errors: error ? { [CARD_FIELD]: error } : {} });
    }
    // Said aloud: the frame's fields describe themselves, the page's own words come through its live region.
    if (state.error && state.error !== previous.error)
      announce(t('payment.card_details_error', { error: state.error }));
    else if (state.brand === 'other' && previous.brand !== 'other') announce(t('payment.accepted_cards'));
  });

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let live = true;
    let fields: MountedCardFields | null = null;
    const mountedIn = facts.current.language;
    facts.current.previous = { brand: null, complete: false, empty: true, error: null };
    // The frame's document is fetched once the step around it has painted.
    afterNextPaint()
      .then(() => load(processorConfig))
      .then((processor) =>
        processor.mount(element, {
          testCards,
          amount: facts.current.amount,
          currency: facts.current.currency,
          storeForFuture: facts.current.storeForFuture,
          language: mountedIn,
          t: (key, values) => facts.current.t(key, values),
          onChange: (state) => {
            if (live) onChange.current(state);
          },
        }),
      )
      .then(
        (next) => {
          if (!live) return next.destroy();
          fields = next;
          mountedFields.current = next;
          // Switched while the frame was loading.
          if (facts.current.language !== mountedIn) next.setLanguage?.(facts.current.language);
          mounted(next);
        },
        (error: unknown) => {
          if (!live) return;
          console.warn('The card fields could not be mounted.', error);
          failed();
        },
      );
    return () => {
      live = false;
      mountedFields.current = null;
      fields?.destroy();
      unmounted();
    };
  }, [attempt, load, processorConfig, testCards, mounted, failed, unmounted]);

  const { state } = view;
  const type = state.brand && state.brand !== 'other' ? cardTypeOf(state.brand) : null;
  const refused = state.brand === 'other';
  const error = shownError ?? state.error ?? undefined;
  return (
    <div className={`field card-frame${error ? ' field--invalid' : ''}`}>
      <p className="field__label" id={LABEL_ID}>
        {t('payment.card_details')}
      </p>
      <p className={`field__hint${refused ? ' card-frame__hint--refused' : ''}`} id={hintId(CARD_FIELD)}>
        {t('payment.accepted_cards')}
        {type ? (
          <span className="card-frame__brand">
            <img
              src={`${import.meta.env.BASE_URL}images/cards/${type.icon}.svg`}
              alt=""
              width={40}
              height={26}
              className="card-frame__icon"
            />
            {type.label}
          </span>
        ) : null}
      </p>
      {/* The box keeps the processor's frame's height while it loads, so nothing below moves when it comes. */}
      <CardFieldsBox
        card={card}
        container={container}
        processorName={processorConfig.name}
        labelId={LABEL_ID}
        describedBy={describedBy(CARD_FIELD, { hint: true, error: Boolean(error) })}
        onRetry={() => setAttempt((count) => count + 1)}
      />
      <FieldError name={CARD_FIELD} error={error} />
      {config.test_mode && testCards.length > 0 && view.fillable ? (
        <TestCards
          testCards={testCards}
          onUse={(number) => {
            card.fields.current?.fillTestCard?.(number);
          }}
        />
      ) : null}
    </div>
  );
}

/** Test mode: the organization's test cards, each put into the framed number field on request. */
function TestCards({ testCards, onUse }: { testCards: readonly string[]; onUse: (number: string) => void }) {
  const { t } = useT();
  return (
    <div className="test-cards">
      <p className="test-cards__title">{t('payment.test_cards_title')}</p>
      <ul className="test-cards__list">
        {testCards.map((number) => (
          <li key={number}>
            <code>{formatCardNumber(number)}</code>{' '}
            <button
              type="button"
              className="button button--link"
              onClick={() => onUse(number)}
              aria-label={t('payment.use_test_card', { number: formatCardNumber(number) })}
            >
              {t('payment.use')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
