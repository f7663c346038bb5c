// Parts the catalogue's forms share: the buttons under a form, what it said after saving, and an object's screen
// while it is read.
import type { ReactNode } from 'react';
import { Button } from '../../ui/button.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';

/** The form's submit button and, beside it, what the last save did (visible; the announcement says it too). */
export function FormFooter(props: { pending: boolean; action: string; saved: string | null }) {
  return (
    <div className="admin-actions">
      <Button type="submit" disabled={props.pending}>
        {props.pending ? 'Saving…' : props.action}
      </Button>
      <p className="catalogue-saved" role="status">
        {props.saved}
      </p>
    </div>
  );
}

/** A group of fields with its own legend (the option rows, a link's lines). */
export function FieldGroup(props: {
  legend: string;
  children: ReactNode;
  error?: string | undefined;
  name: string;
}) {
  return (
    // Its id is the group's field name's, so the error summary's entry for the group moves here.
    <fieldset
      id={`field-${props.name}`}
      tabIndex={-1}
      className="catalogue-group"
      aria-describedby={props.error ? `field-${props.name}-error` : undefined}
    >
      <legend className="field__label">{props.legend}</legend>
      {props.children}
      {props.error ? (
        <p className="field__error" id={`field-${props.name}-error`}>
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** An object's screen while it is read, or why it could not be (its own heading, so focus still lands on one). */
export function ObjectLoading(props: { what: string; error: unknown }) {
  if (!props.error) return <QueryState error={null} loading={`Reading the ${props.what}…`} />;
  return (
    <>
      <ScreenHeading>{`This ${props.what} could not be opened`}</ScreenHeading>
      <QueryState error={props.error} loading="" />
    </>
  );
}
