// The store's webhook endpoints (docs/dashboard.md, "Developers"; docs/webhooks.md): the list, and a new one whose
// signing secret is shown once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  CreatedWebhookEndpointSchema,
  WEBHOOK_EVENT_TYPES,
  WebhookEndpointListSchema,
} from '../../../contract/webhooks.js';
import { Button } from '../../ui/button.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { useAnnounce } from '../../ui/live-region.js';
import { TextField } from '../../ui/text-field.js';
import { request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { formatDateTime } from '../kit/format.js';
import { Pager, PAGE_SIZE, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { CopyValue } from '../subscriptions/copy-value.js';
import { chosenEvents } from './developer-words.js';
import { EventsFieldset } from './events-fieldset.js';

export const WEBHOOKS_KEY = ['webhook-endpoints'] as const;
export const WEBHOOKS_BASE = '/checkout/api/merchant/webhook-endpoints';
export const ENDPOINT_FIELDS = ['url', 'events', 'active'] as const;

function CreateEndpoint() {
  const client = useQueryClient();
  const announce = useAnnounce();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const shownRef = useRef<HTMLHeadingElement>(null);
  const create = useMutation({
    mutationFn: () =>
      request(CreatedWebhookEndpointSchema, 'POST', WEBHOOKS_BASE, {
        url,
        events: chosenEvents(WEBHOOK_EVENT_TYPES, events),
      }),
    onSuccess: () => {
      setUrl('');
      setEvents(new Set());
      void client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      announce('The endpoint is added. Its signing secret is shown once: copy it now.');
    },
  });
  useEffect(() => {
    if (create.data) shownRef.current?.focus();
  }, [create.data]);
  const { message, fields } = failureOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section className="admin-card" aria-labelledby="new-endpoint">
      <h2 id="new-endpoint">Add an endpoint</h2>
      {create.data ? (
        <div className="developers-once" data-once>
          <h3 ref={shownRef} tabIndex={-1}>
            Endpoint added: its signing secret
          </h3>
          <p className="developers-warning">
            Copy the secret into the program that receives the events, to check their signatures. It will not
            be shown again.
          </p>
          <CopyValue label="Signing secret" value={create.data.secret} />
          <div className="admin-actions">
            <AdminLink to={`/admin/developers/webhooks/${create.data.id}`}>Open the endpoint</AdminLink>
            <Button variant="secondary" onClick={() => create.reset()}>
              I have copied it
            </Button>
          </div>
        </div>
      ) : null}
      <form className="admin-form" onSubmit={submit} noValidate>
        <ErrorSummary errors={summaryOf(fields, ENDPOINT_FIELDS)} message={message} />
        <TextField
          name="url"
          label="URL to send events to"
          type="url"
          inputMode="text"
          hint="A public https:// address of your program."
          autoComplete="off"
          value={url}
          onChange={setUrl}
          error={fields.url}
        />
        <EventsFieldset chosen={events} onChange={setEvents} error={fields.events} />
        <div className="admin-actions">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add the endpoint'}
          </Button>
        </div>
      </form>
    </section>
  );
}

export function WebhooksScreen() {
  const list = usePagedList(
    [...WEBHOOKS_KEY, 'list'],
    (cursor) =>
      request(
        WebhookEndpointListSchema,
        'GET',
        `${WEBHOOKS_BASE}?limit=${PAGE_SIZE}${cursor === undefined ? '' : `&starting_after=${cursor}`}`,
      ),
    (endpoint) => endpoint.id,
  );
  return (
    <div className="admin-stack">
      <ScreenHeading>Webhooks</ScreenHeading>
      <p>
        The store tells your programs what happens (an order completed, a subscription renewed) by signed
        POSTs.
      </p>
      <section className="admin-card" aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        {!list.query.data ? (
          <QueryState error={list.query.error} loading="Reading the endpoints…" />
        ) : list.items.length === 0 ? (
          <p>No endpoint yet: add one below.</p>
        ) : (
          <>
            <div className="admin-table-wrap subscriptions-scroll">
              <table className="admin-table" aria-labelledby="endpoints-heading">
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">Sending</th>
                    <th scope="col">Added</th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((endpoint) => (
                    <tr key={endpoint.id}>
                      <td className="developers-url">
                        <AdminLink to={`/admin/developers/webhooks/${endpoint.id}`}>{endpoint.url}</AdminLink>
                      </td>
                      <td>{endpoint.events.join(', ')}</td>
                      <td>{endpoint.active ? 'Yes' : 'No (turned off)'}</td>
                      <td>{formatDateTime(endpoint.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager label="Endpoints" list={list} />
          </>
        )}
      </section>
      <CreateEndpoint />
    </div>
  );
}
