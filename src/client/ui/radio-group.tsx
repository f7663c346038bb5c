import type { ReactNode } from 'react';
import { errorId, fieldId } from './field-ids.js';
import { FieldError } from './field-shell.js';

export interface RadioChoice {
  value: string;
  label: ReactNode;
  /** shown at the end of the row (a price) */
  detail?: ReactNode;
}

export interface RadioGroupProps {
  name: string;
  legend: string;
  value: string;
  choices: readonly RadioChoice[];
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** A fieldset of radio rows; the first row carries the field id so an error summary can move focus to it. */
export function RadioGroup(props: RadioGroupProps) {
  const { name, error } = props;
  return (
    <fieldset
      className={`radio-group${error ? ' radio-group--invalid' : ''}`}
      aria-describedby={error ? errorId(name) : undefined}
    >
      <legend className="field__label">{props.legend}</legend>
      {props.choices.map((choice, index) => {
        const id = index === 0 ? fieldId(name) : `${fieldId(name)}-${index}`;
        return (
          <div className="radio-group__row" key={choice.value}>
            <input
              className="radio-group__input"
              type="radio"
              id={id}
              name={name}
              value={choice.value}
              checked={props.value === choice.value}
              onChange={() => props.onChange(choice.value)}
            />
            <label className="radio-group__label" htmlFor={id}>
              <span>{choice.label}</span>
              {choice.detail ? <span className="radio-group__detail">{choice.detail}</span> : null}
            </label>
          </div>
        );
      })}
      <FieldError name={name} error={error} />
    </fieldset>
  );
}
