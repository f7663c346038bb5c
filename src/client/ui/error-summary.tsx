import { useEffect, useRef } from 'react';
import { useT } from '../i18n/use-t.js';
import { fieldId, focusField } from './field-ids.js';
import './error-summary.css';

export interface ErrorSummaryProps {
  /** field name → message, in the order the fields appear */
  errors: readonly [string, string][];
  /** a failure not tied to one field (a refused gift save) */
  message?: string | null;
  /** makes a field visible before focusing it (a closed accordion panel) */
  reveal?: (name: string) => void;
}

/** The list of what to fix at the top of a section, announced as an alert; each entry moves to its field. */
export function ErrorSummary({ errors, message, reveal }: ErrorSummaryProps) {
  const { t } = useT();
  const ref = useRef<HTMLDivElement>(null);
  // Brought into view when what it says changes, not each time a section re-renders with an equal list (every
  // keystroke builds a new one): that would pull the page away from the field being typed in.
  const said = JSON.stringify([errors, message ?? null]);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [said]);
  if (errors.length === 0 && !message) return null;
  return (
    <div className="error-summary" role="alert" ref={ref}>
      {message ? <p className="error-summary__message">{message}</p> : null}
      {errors.length > 0 ? (
        <>
          <p className="error-summary__title">{t('ui.check_fields', { count: errors.length })}</p>
          <ul className="error-summary__list">
            {errors.map(([name, text]) => (
              <li key={name}>
                <a
                  href={`#${fieldId(name)}`}
                  onClick={(event) => {
                    event.preventDefault();
                    if (reveal) {
                      reveal(name);
                      requestAnimationFrame(() => focusField(name));
                    } else focusField(name);
                  }}
                >
                  {text}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
