import type { HTMLInputAutoCompleteAttribute } from 'react';
import { describedBy, fieldId } from './field-ids.js';
import { FieldShell } from './field-shell.js';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  name: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  autoComplete: HTMLInputAutoCompleteAttribute;
  /** the first, empty choice ("Choose a state") */
  placeholder?: string;
  required?: boolean;
}

export function SelectField(props: SelectFieldProps) {
  const { name, error, required = true } = props;
  return (
    <FieldShell name={name} label={props.label} optional={!required} error={error}>
      <div className="field__control field__control--select">
        <select
          className="field__input field__select"
          id={fieldId(name)}
          name={name}
          value={props.value}
          autoComplete={props.autoComplete}
          onChange={(event) => props.onChange(event.target.value)}
          onBlur={props.onBlur}
          required={required}
          aria-required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(name, { error: Boolean(error) })}
        >
          {props.placeholder !== undefined ? <option value="">{props.placeholder}</option> : null}
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    </FieldShell>
  );
}
