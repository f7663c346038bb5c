import type { HTMLInputAutoCompleteAttribute, HTMLInputTypeAttribute, ReactNode } from 'react';
import { describedBy, fieldId } from './field-ids.js';
import { FieldShell } from './field-shell.js';

export interface TextFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  hint?: ReactNode;
  autoComplete: HTMLInputAutoCompleteAttribute;
  type?: HTMLInputTypeAttribute;
  inputMode?: 'text' | 'numeric' | 'tel' | 'email' | 'decimal';
  required?: boolean;
  maxLength?: number;
  /** shown inside the field's end (a card brand icon) */
  adornment?: ReactNode;
  min?: string;
}

/** A labelled input: label above, hint, the message under the field says what to do. */
export function TextField(props: TextFieldProps) {
  const { name, error, hint, required = true } = props;
  return (
    <FieldShell name={name} label={props.label} optional={!required} hint={hint} error={error}>
      <div className="field__control">
        <input
          className="field__input"
          id={fieldId(name)}
          name={name}
          type={props.type ?? 'text'}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          onBlur={props.onBlur}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          min={props.min}
          required={required}
          aria-required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(name, { hint: Boolean(hint), error: Boolean(error) })}
        />
        {props.adornment ? <span className="field__adornment">{props.adornment}</span> : null}
      </div>
    </FieldShell>
  );
}
