// The store's API keys (docs/dashboard.md, "Developers"): made with a label, the key itself shown once; revoked at
// once after a confirmation in the page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CreatedApiKeySchema,
  type ApiKey,
} from '../../../contract/merchant.js';
import { Button } from '../../ui/button.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { useAnnounce } from '../../ui/live-region.js';
import { TextField } from '../../ui/text-field.js';
import { ApiFailure, request } from '../admin-api.js';
import { auditKey } from '../kit/audit-trail.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { formatDateTime } from '../kit/format.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { CopyValue } from '../subscriptions/copy-value.js';

const KEYS = ['api-keys'] as const;
const BASE = '/checkout/api/merchant/api-keys';

function keyName(key: ApiKey): string {
  return key.label ? `${key.key_prefix}… (${key.label})` : `${key.key_prefix}…`;
}

function CreateKey() {
  const client = useQueryClient();
  const announce = useAnnounce();
  const [label, setLabel] = useState('');
  const shownRef = useRef<HTMLHeadingElement>(null);
  const create = useMutation({
    mutationFn: () => request(CreatedApiKeySchema, 'POST', BASE, label.trim() ? { label: label.trim() } : {}),
    onSuccess: () => {
      setLabel('');
      void client.invalidateQueries({ queryKey: KEYS });
      announce('The new key is shown once: copy it now.');
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
    <section className="admin-card" aria-labelledby="new-key">
      <h2 id="new-key">Make a key</h2>
      {create.data ? (
        <div className="developers-once" data-once>
          <h3 ref={shownRef} tabIndex={-1}>
            Your new key
          </h3>
          <p className="developers-warning">
            Copy it now and keep it somewhere safe: it will not be shown again. Only its first characters are
            kept, to tell it apart.
          </p>
          <CopyValue label="API key" value={create.data.key} />
          <Button variant="secondary" onClick={() => create.reset()}>
            I have copied it
          </Button>
        </div>
      ) : null}
      <form className="admin-form" onSubmit={submit} noValidate>
        <ErrorSummary errors={summaryOf(fields, ['label'])} message={message} />
        <TextField
          name="label"
          label="Label"
          hint="What uses it, such as “Shop backend”."
          autoComplete="off"
          required={false}
          maxLength={100}
          value={label}
          onChange={setLabel}
          error={fields.label}
        />
        <div className="admin-actions">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Making the key…' : 'Make a key'}
          </Button>
        </div>
      </form>
    </section>
  );
}

function RevokeConfirmation(props: { apiKey: ApiKey; onDone: () => void }) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const revoke = useMutation({
    mutationFn: () => request(ApiKeySchema, 'POST', `${BASE}/${props.apiKey.id}/revoke`, {}),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: KEYS });
      void client.invalidateQueries({ queryKey: auditKey('api_key', props.apiKey.id) });
      announce(`The key ${keyName(props.apiKey)} is revoked.`);
      props.onDone();
    },
  });
  return (
    <div className="subscription-confirm" role="group" aria-labelledby="revoke-confirm">
      <p id="revoke-confirm" ref={ref} tabIndex={-1}>
        Revoke the key {keyName(props.apiKey)}? Every request made with it is refused from now on, and it
        cannot be used again.
      </p>
      {revoke.error ? (
        <p role="alert" className="subscription-refusal">
          {revoke.error instanceof ApiFailure ? revoke.error.message : 'Something went wrong. Try again.'}
        </p>
      ) : null}
      <div className="admin-actions">
        <Button disabled={revoke.isPending} onClick={() => revoke.mutate()}>
          {revoke.isPending ? 'Revoking…' : 'Yes, revoke it'}
        </Button>
        <Button variant="secondary" disabled={revoke.isPending} onClick={props.onDone}>
          Keep it
        </Button>
      </div>
    </div>
  );
}

export function ApiKeysScreen() {
  const keys = useQuery({ queryKey: KEYS, queryFn: () => request(ApiKeyListSchema, 'GET', BASE) });
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  // The row's button may be gone (a revoked key has none): the list's heading takes the focus back.
  const done = () => {
    setRevoking(null);
    requestAnimationFrame(() => document.getElementById('api-keys-heading')?.focus());
  };
  return (
    <div className="admin-stack">
      <ScreenHeading>API keys</ScreenHeading>
      <p>
        A key lets a program use the merchant API as this store: create carts, read orders, change
        subscriptions.
      </p>
      <CreateKey />
      <section className="admin-card" aria-labelledby="api-keys-heading">
        <h2 id="api-keys-heading" tabIndex={-1}>
          Keys
        </h2>
        {!keys.data ? (
          <QueryState error={keys.error} loading="Reading the keys…" />
        ) : keys.data.data.length === 0 ? (
          <p>This store has no API keys yet.</p>
        ) : (
          <div className="admin-table-wrap subscriptions-scroll">
            <table className="admin-table" aria-labelledby="api-keys-heading">
              <thead>
                <tr>
                  <th scope="col">Key starts with</th>
                  <th scope="col">Label</th>
                  <th scope="col">Created</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.data.map((key) => (
                  <tr key={key.id}>
                    <td>
                      <code>{key.key_prefix}…</code>
                    </td>
                    <td>{key.label || 'No label'}</td>
                    <td>{formatDateTime(key.created_at)}</td>
                    <td>{key.revoked_at ? `Revoked ${formatDateTime(key.revoked_at)}` : 'In use'}</td>
                    <td>
                      {key.revoked_at ? null : (
                        <Button
                          variant="secondary"
                          onClick={() => setRevoking(key)}
                          aria-label={`Revoke ${keyName(key)}`}
                        >
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {revoking ? <RevokeConfirmation key={revoking.id} apiKey={revoking} onDone={done} /> : null}
      </section>
    </div>
  );
}
