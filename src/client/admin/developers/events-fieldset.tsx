import { WEBHOOK_EVENT_TYPES } from '../../../contract/webhooks.js';
import { Checkbox } from '../../ui/checkbox.js';
import { errorId, fieldId } from '../../ui/field-ids.js';

/** The events an endpoint is sent, as checkboxes; the server's word on them (none chosen) under the group. */
export function EventsFieldset(props: {
  chosen: ReadonlySet<string>;
  onChange: (chosen: Set<string>) => void;
  error: string | undefined;
}) {
  const toggle = (event: string, on: boolean) => {
    const next = new Set(props.chosen);
    if (on) next.add(event);
    else next.delete(event);
    props.onChange(next);
  };
  return (
    <fieldset
      className="developers-events"
      id={fieldId('events')}
      tabIndex={-1}
      aria-describedby={props.error ? errorId('events') : undefined}
    >
      <legend className="field__label">Events to send</legend>
      <div className="developers-events__list">
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <Checkbox
            key={event}
            name={`event-${event}`}
            label={<code>{event}</code>}
            checked={props.chosen.has(event)}
            onChange={(on) => toggle(event, on)}
          />
        ))}
      </div>
      {props.error ? (
        <p className="field__error" id={errorId('events')}>
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
