import { useEffect, useRef, useState } from 'react';
import type { CardProcessorConfig } from '../../contract/page-config.js';
import { CardFieldsBox } from '../checkout/payment/card-fields-box.js';
import { useCardSession } from '../checkout/payment/card-session.js';
import { loadCardProcessor } from '../checkout/payment/processors/load-card-processor.js';
import { useT } from '../i18n/use-t.js';
import { Button } from '../ui/button.js';
import { useAnnounce } from '../ui/live-region.js';
import type { SubscriberAnswer } from './subscriber-api.js';

const LABEL_ID = 'card-details-label';
const ERROR_ID = 'card-details-error';

/**
 * A new card in the configured processor's frame, mounted as the checkout's payment step mounts it
 * (docs/payments.md, "The page adapter"): the page hears the brand, completeness and errors, then gets a single-use
 * token it sends to the subscriber API. The card's number never reaches this page or the store's server.
 */
export function CardUpdate(props: {
  processor: CardProcessorConfig;
  currency: string;
  busy: boolean;
  /** sends the card's token (again with the reference once the bank's authentication is done) */
  save(token: string, authenticated?: string): Promise<SubscriberAnswer>;
  /** the save's final answer */
  done(answer: SubscriberAnswer): void;
  onCancel(): void;
}) {
  const { processor, currency } = props;
  const card = useCardSession();
  const { mounted, changed, failed, unmounted } = card;
  const container = useRef<HTMLDivElement>(null);
  const announce = useAnnounce();
  const { t, language } = useT();
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [tokenizing, setTokenizing] = useState(false);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let live = true;
    let fields: Awaited<ReturnType<Awaited<ReturnType<typeof loadCardProcessor>>['mount']>> | null = null;
    loadCardProcessor(processor)
      .then((adapter) =>
        adapter.mount(element, {
          testCards: [],
          // Nothing is charged now: the card is saved for the renewals.
          purpose: 'setup',
          amount: 0,
          currency,
          storeForFuture: true,
          language,
          t,
          onChange: (state) => {
            if (!live) return;
            changed(state);
            if (state.error) announce(t('manage.cardDetailsError', { error: state.error }));
          },
        }),
      )
      .then(
        (next) => {
          if (!live) return next.destroy();
          fields = next;
          mounted(next);
        },
        () => {
          if (live) failed();
        },
      );
    return () => {
      live = false;
      fields?.destroy();
      unmounted();
    };
  }, [processor, currency, attempt, announce, mounted, changed, failed, unmounted, language, t]);

  const { view } = card;
  const shownError = error ?? view.state.error;

  async function save() {
    if (!card.fields.current || !view.state.complete) {
      const message = t('manage.cardIncomplete');
      setError(message);
      announce(message);
      card.fields.current?.focus();
      return;
    }
    setError(null);
    setTokenizing(true);
    const outcome = await card.fields.current.tokenize();
    setTokenizing(false);
    if (!outcome.ok) {
      setError(outcome.message);
      announce(outcome.message);
      return;
    }
    let answer = await props.save(outcome.token);
    if (!answer.ok && answer.kind === 'authenticate') {
      // The bank's check (3-D Secure) in the processor's own frame or dialog, then the same card again.
      const authenticated = await card.fields.current.authenticate(answer.action.payment_action);
      if (!authenticated.ok) {
        setError(authenticated.message);
        announce(authenticated.message);
        props.done({ ok: false, kind: 'refused', message: authenticated.message });
        return;
      }
      answer = await props.save(outcome.token, answer.action.reference);
    }
    props.done(answer);
  }

  const working = props.busy || tokenizing;
  return (
    <form
      className="manage-card"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className={`field card-frame${shownError ? ' field--invalid' : ''}`}>
        <p className="field__label" id={LABEL_ID}>
          {t('manage.cardDetails')}
        </p>
        <CardFieldsBox
          card={card}
          container={container}
          processorName={processor.name}
          labelId={LABEL_ID}
          describedBy={shownError ? ERROR_ID : undefined}
          onRetry={() => setAttempt((count) => count + 1)}
        />
        {shownError ? (
          <p className="field__error" id={ERROR_ID}>
            {shownError}
          </p>
        ) : null}
      </div>
      <div className="manage-actions">
        <Button type="submit" disabled={working || view.status !== 'ready'}>
          {working ? t('manage.saving') : t('manage.saveCard')}
        </Button>
        <Button variant="secondary" onClick={props.onCancel} disabled={working}>
          {t('manage.keepCard')}
        </Button>
      </div>
    </form>
  );
}
