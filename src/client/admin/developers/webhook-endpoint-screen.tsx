// One webhook endpoint (docs/dashboard.md, "Developers"): its URL, events and whether it is sent to, changed here;
// its deliveries with each attempt's answer, any of them sent again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { UpdateWebhookEndpointSchema } from '../../../contract/webhooks.js';
import {
  WEBHOOK_EVENT_TYPES,
  WebhookDeliveryListSchema,
  WebhookEndpointSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../../contract/webhooks.js';
import { z } from '../../../contract/zod.js';
import { Button } from '../../ui/button.js';
import { Checkbox } from '../../ui/checkbox.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { useAnnounce } from '../../ui/live-region.js';
import { TextField } from '../../ui/text-field.js';
import { ApiFailure, request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { AuditTrail, auditKey } from '../kit/audit-trail.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { formatDateTime } from '../kit/format.js';
import { Pager, PAGE_SIZE, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { chosenEvents } from './developer-words.js';
import { EventsFieldset } from './events-fieldset.js';
import { ENDPOINT_FIELDS, WEBHOOKS_BASE, WEBHOOKS_KEY } from './webhooks-screen.js';

const ResendSchema = z.object({ id: z.int(), status: z.literal('pending') });
const DELIVERY_STATUS: Record<WebhookDelivery['status'], string> = {
  pending: 'Sending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

function EditEndpoint(props: { endpoint: WebhookEndpoint }) {
  const { endpoint } = props;
  const client = useQueryClient();
  const announce = useAnnounce();
  const [url, setUrl] = useState(endpoint.url);
  const [events, setEvents] = useState<Set<string>>(new Set(endpoint.events));
  const [active, setActive] = useState(endpoint.active);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () => {
      const body: z.input<typeof UpdateWebhookEndpointSchema> = {
        url,
        events: chosenEvents(WEBHOOK_EVENT_TYPES, events),
        active,
      };
      return request(WebhookEndpointSchema, 'PATCH', `${WEBHOOKS_BASE}/${endpoint.id}`, body);
    },
    onMutate: () => setSaved(false),
    onSuccess: (after) => {
      client.setQueryData([...WEBHOOKS_KEY, 'one', endpoint.id], after);
      void client.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, 'list'] });
      void client.invalidateQueries({ queryKey: auditKey('webhook_endpoint', endpoint.id) });
      setSaved(true);
      announce('The endpoint is saved.');
    },
  });
  const { message, fields } = failureOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="admin-card" aria-labelledby="endpoint-settings">
      <h2 id="endpoint-settings">Settings</h2>
      <form className="admin-form" onSubmit={submit} noValidate>
        <ErrorSummary errors={summaryOf(fields, ENDPOINT_FIELDS)} message={message} />
        <TextField
          name="url"
          label="URL to send events to"
          type="url"
          inputMode="text"
          autoComplete="off"
          value={url}
          onChange={setUrl}
          error={fields.url}
        />
        <EventsFieldset chosen={events} onChange={setEvents} error={fields.events} />
        <Checkbox
          name="active"
          label="Send events to it (turn off to stop its deliveries)"
          checked={active}
          onChange={setActive}
          error={fields.active}
        />
        <p className="developers-muted">
          Its signing secret starts with <code>{endpoint.secret_prefix}</code>.
        </p>
        <div className="admin-actions">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
          {saved ? <p role="status">Saved.</p> : null}
        </div>
      </form>
    </section>
  );
}

function Attempts(props: { delivery: WebhookDelivery }) {
  if (props.delivery.attempts.length === 0) return <>None yet</>;
  return (
    <ol className="developers-attempts">
      {props.delivery.attempts.map((attempt, index) => (
        <li key={index}>
          {formatDateTime(attempt.attempted_at)}:{' '}
          {attempt.status_code === null ? 'no answer' : `status ${attempt.status_code}`},{' '}
          {attempt.duration_ms} ms
          {attempt.response ? (
            <>
              {' '}
              <q className="developers-response">{attempt.response}</q>
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function Deliveries(props: { endpointId: number }) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const key = [...WEBHOOKS_KEY, 'deliveries', props.endpointId] as const;
  const list = usePagedList(
    key,
    (cursor) =>
      request(
        WebhookDeliveryListSchema,
        'GET',
        `${WEBHOOKS_BASE}/${props.endpointId}/deliveries?limit=${PAGE_SIZE}${
          cursor === undefined ? '' : `&starting_after=${cursor}`
        }`,
      ),
    (delivery) => delivery.id,
  );
  const [said, setSaid] = useState<string | null>(null);
  const resend = useMutation({
    mutationFn: (delivery: WebhookDelivery) =>
      request(
        ResendSchema,
        'POST',
        `${WEBHOOKS_BASE}/${props.endpointId}/deliveries/${delivery.id}/resend`,
        {},
      ),
    onSuccess: (_answer, delivery) => {
      void client.invalidateQueries({ queryKey: key });
      void client.invalidateQueries({ queryKey: auditKey('webhook_endpoint', props.endpointId) });
      const text = `The ${delivery.event_type} event is queued to be sent again.`;
      setSaid(text);
      announce(text);
    },
  });
  return (
    <section className="admin-card" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      {said ? <p>{said}</p> : null}
      {resend.error ? (
        <p role="alert" className="subscription-refusal">
          {resend.error instanceof ApiFailure ? resend.error.message : 'Something went wrong. Try again.'}
        </p>
      ) : null}
      {!list.query.data ? (
        <QueryState error={list.query.error} loading="Reading the deliveries…" />
      ) : list.items.length === 0 ? (
        <p>Nothing has been sent to this endpoint yet.</p>
      ) : (
        <>
          <div className="admin-table-wrap subscriptions-scroll">
            <table className="admin-table" aria-labelledby="deliveries-heading">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Next attempt</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>
                      <code>{delivery.event_type}</code>
                      <br />
                      <span className="developers-muted">{formatDateTime(delivery.created_at)}</span>
                    </td>
                    <td>{DELIVERY_STATUS[delivery.status]}</td>
                    <td>
                      <Attempts delivery={delivery} />
                    </td>
                    <td>{delivery.next_attempt_at ? formatDateTime(delivery.next_attempt_at) : 'None'}</td>
                    <td>
                      <Button
                        variant="secondary"
                        disabled={resend.isPending}
                        onClick={() => resend.mutate(delivery)}
                        aria-label={`Send again: ${delivery.event_type} of ${formatDateTime(delivery.created_at)}`}
                      >
                        Send again
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Deliveries" list={list} />
        </>
      )}
    </section>
  );
}

export function WebhookEndpointScreen(props: { id: number }) {
  const endpoint = useQuery({
    queryKey: [...WEBHOOKS_KEY, 'one', props.id],
    queryFn: () => request(WebhookEndpointSchema, 'GET', `${WEBHOOKS_BASE}/${props.id}`),
  });
  return (
    <div className="admin-stack">
      <ScreenHeading>{`Webhook endpoint ${props.id}`}</ScreenHeading>
      <p>
        <AdminLink to="/admin/developers/webhooks">All endpoints</AdminLink>
      </p>
      {!endpoint.data ? (
        <QueryState error={endpoint.error} loading="Reading the endpoint…" />
      ) : (
        <>
          <EditEndpoint key={endpoint.data.id} endpoint={endpoint.data} />
          <Deliveries endpointId={props.id} />
          <AuditTrail objectType="webhook_endpoint" objectId={props.id} />
        </>
      )}
    </div>
  );
}
