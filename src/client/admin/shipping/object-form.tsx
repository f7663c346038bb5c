// The form of a shipping profile or a tax rate: what the server refused by each field and in a summary at its top,
// one Save button. A new object's screen moves to the object's own once it is made.
import type { FormEvent, ReactNode } from 'react';
import { Button } from '../../ui/button.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { fieldErrorsFor } from '../settings/field-values.js';

export function errorsOf(error: unknown, names: readonly string[]) {
  const { message, fields } = failureOf(error);
  return { message, errors: fieldErrorsFor(fields, names) };
}

export function ObjectForm(props: {
  labelledBy: string;
  error: unknown;
  fieldNames: readonly string[];
  pending: boolean;
  action: string;
  saved: string | null;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { message, errors } = errorsOf(props.error, props.fieldNames);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <form
      className="admin-form shipping-form"
      noValidate
      onSubmit={submit}
      aria-labelledby={props.labelledBy}
    >
      <ErrorSummary errors={summaryOf(errors, props.fieldNames)} message={message} />
      {props.children}
      <div className="admin-actions">
        <Button type="submit" disabled={props.pending}>
          {props.pending ? 'Saving…' : props.action}
        </Button>
        {props.saved ? <p className="shipping-saved">{props.saved}</p> : null}
      </div>
    </form>
  );
}
