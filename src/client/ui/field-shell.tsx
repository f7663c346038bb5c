import type { ReactNode } from 'react';
import { useT } from '../i18n/use-t.js';
import { errorId, fieldId, hintId } from './field-ids.js';
import './field.css';

/** The message under a field (or a group) that says what to fix; the control names it in aria-describedby. */
export function FieldError({
  name,
  error,
  className = 'field__error',
}: {
  name: string;
  error: string | undefined;
  className?: string;
}) {
  return error ? (
    <p className={className} id={errorId(name)}>
      {error}
    </p>
  ) : null;
}

export interface FieldShellProps {
  name: string;
  label: string;
  /** adds "(optional)" to the label */
  optional?: boolean;
  hint?: ReactNode;
  error: string | undefined;
  /** the control itself, labelled by fieldId(name) */
  children: ReactNode;
}

/** What every labelled field shares: label above, hint, the control, the error under it. */
export function FieldShell({ name, label, optional = false, hint, error, children }: FieldShellProps) {
  const { t } = useT();
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={fieldId(name)}>
        {label}
        {optional && <span className="field__optional"> {t('ui.optional')}</span>}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId(name)}>
          {hint}
        </p>
      ) : null}
      {children}
      <FieldError name={name} error={error} />
    </div>
  );
}
