import type { ReactNode } from 'react';
import { T, useT } from '../i18n/use-t.js';
import { Button } from '../ui/button.js';

export type SectionStatus = 'open' | 'finished' | 'upcoming';

export interface SectionFrameProps {
  id: string;
  number: number;
  title: string;
  status: SectionStatus;
  /** the one-line summary of a finished section */
  summary?: ReactNode;
  onChange?: () => void;
  /** what Change says to a screen reader ("Change shipping address") */
  changeLabel?: string;
  /** the step shown before this one, which Back opens (label: "Back to contact"); null for the first step */
  back?: { label: string; onBack: () => void } | null;
  children?: ReactNode;
}

export const sectionHeadingId = (id: string) => `section-${id}-heading`;

/**
 * One step of the accordion: its heading (with Back to the step before while it is open), then its form when open or
 * its summary with "Change" when finished.
 */
export function SectionFrame({
  id,
  number,
  title,
  status,
  summary,
  onChange,
  changeLabel,
  back,
  children,
}: SectionFrameProps) {
  const { t } = useT();
  return (
    <li className={`section section--${status}`} aria-current={status === 'open' ? 'step' : undefined}>
      <section aria-labelledby={sectionHeadingId(id)}>
        <div className="section__header">
          <h2 className="section__title" id={sectionHeadingId(id)} tabIndex={-1}>
            <span className="section__number" aria-hidden="true">
              {number}
            </span>
            <T
              id="checkout.step_heading"
              values={{ number, title }}
              components={[<span className="visually-hidden" />]}
            />
          </h2>
          {status === 'finished' && onChange ? (
            <Button variant="link" onClick={onChange} aria-label={changeLabel}>
              {t('checkout.change')}
            </Button>
          ) : null}
          {status === 'open' && back ? (
            <Button variant="link" onClick={back.onBack} aria-label={back.label}>
              {t('checkout.back')}
            </Button>
          ) : null}
        </div>
        {status === 'finished' && summary ? <div className="section__summary">{summary}</div> : null}
        {status === 'open' ? <div className="section__body">{children}</div> : null}
      </section>
    </li>
  );
}
