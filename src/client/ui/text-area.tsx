import { describedBy, fieldId } from './field-ids.js';
import { FieldShell } from './field-shell.js';

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
    <FieldShell name={name} label={props.label} optional hint={hint} error={error}>
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
    </FieldShell>
  );
}
