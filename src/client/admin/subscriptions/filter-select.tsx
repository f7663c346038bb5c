import { FieldShell } from '../../ui/field-shell.js';
import { fieldId } from '../../ui/field-ids.js';

/** A list filter's select: its first choice is "any" (so, unlike a form's select, it is never required). */
export function FilterSelect(props: {
  name: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <FieldShell name={props.name} label={props.label} error={undefined}>
      <div className="field__control field__control--select">
        <select
          className="field__input field__select"
          id={fieldId(props.name)}
          name={props.name}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        >
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
