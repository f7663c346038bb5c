import { describedBy, errorId, fieldId, hintId } from './field-ids.js';
import './field.css';

export interface TextAreaProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  hint?: string;
  maxLength: number;
  autoComplete?: 'off' | 'on';
}

export function TextArea(props: TextAreaProps) {
  const { name, error, hint } = props;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={fieldId(name)}>
        {props.label}
        <span className="field__optional"> (optional)</span>
      </label>
      {hint ? (
        <p className="field__hint" id={hintId(name)}>
          {hint}
        </p>
      ) : null}
      <textarea
        className="field__input field__input--multiline"
        id={fieldId(name)}
        name={name}
        rows={3}
        value={props.value}
        maxLength={props.maxLength}
        autoComplete={props.autoComplete ?? 'off'}
        onChange={(event) => props.onChange(event.target.value)}
        onBlur={props.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, { hint: Boolean(hint), error: Boolean(error) })}
      />
      {error ? (
        <p className="field__error" id={errorId(name)}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
