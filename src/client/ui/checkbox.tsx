import type { ReactNode } from 'react';
import { describedBy, fieldId } from './field-ids.js';
import { FieldError } from './field-shell.js';

export interface CheckboxProps {
  name: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
}

export function Checkbox(props: CheckboxProps) {
  const { name, error } = props;
  return (
    <div className={`checkbox${error ? ' checkbox--invalid' : ''}`}>
      <input
        className="checkbox__input"
        type="checkbox"
        id={fieldId(name)}
        name={name}
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, { error: Boolean(error) })}
      />
      <label className="checkbox__label" htmlFor={fieldId(name)}>
        {props.label}
      </label>
      <FieldError name={name} error={error} className="field__error checkbox__error" />
    </div>
  );
}
