import type { RefObject } from 'react';
import { Button } from '../../ui/button.js';
import { fieldId } from '../../ui/field-ids.js';
import { CARD_FIELD } from '../section-rules.js';
import type { CardSession } from './card-session.js';
import { useT } from '../../i18n/use-t.js';

/** What the fields last said, on the group for styles and browser tests: loading, failed, empty, incomplete, complete. */
export function cardStateName(view: CardSession['view']): string {
  if (view.status !== 'ready') return view.status;
  if (view.state.empty) return 'empty';
  return view.state.complete ? 'complete' : 'incomplete';
}

/**
 * Where the processor's frame is mounted (the checkout's payment step, the subscriber's new card): a labelled group
 * that passes focus on into the frame, its place kept while it loads so nothing below moves, and a way to try again
 * when it could not load.
 */
export function CardFieldsBox(props: {
  card: CardSession;
  container: RefObject<HTMLDivElement | null>;
  processorName: string;
  labelId: string;
  describedBy: string | undefined;
  onRetry(): void;
}) {
  const { card, container, processorName, labelId, describedBy, onRetry } = props;
  const { view } = card;
  const { t } = useT();
  return (
    <>
      <div
        className="card-frame__box"
        data-processor={processorName}
        data-loading={view.status === 'loading'}
      >
        <div
          className="card-frame__fields"
          id={fieldId(CARD_FIELD)}
          ref={container}
          role="group"
          aria-labelledby={labelId}
          aria-describedby={describedBy}
          aria-busy={view.status === 'loading'}
          data-card-state={cardStateName(view)}
          tabIndex={-1}
          onFocus={(event) => {
            // The page moves focus here (an error summary's link, a refused card): it goes on into the frame.
            if (event.target === event.currentTarget) card.fields.current?.focus();
          }}
        />
        {view.status === 'loading' ? (
          <p className="card-frame__loading" role="status">
            {t('payment.loading_card_fields')}
          </p>
        ) : null}
      </div>
      {view.status === 'failed' ? (
        <div className="notice notice--error card-frame__failed">
          <p>{t('payment.card_unavailable')}</p>
          <Button variant="link" onClick={onRetry}>
            {t('payment.try_again')}
          </Button>
        </div>
      ) : null}
    </>
  );
}
