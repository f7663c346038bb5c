// The email log (docs/dashboard.md, "Developers"; docs/emails.md): what was sent to whom and how it went, one
// order's emails when the address names it, a page at a time.
import { useState, type FormEvent } from 'react';
import { EmailListSchema, type EmailSummary } from '../../../contract/email.js';
import { Button } from '../../ui/button.js';
import { TextField } from '../../ui/text-field.js';
import { request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { failureOf } from '../kit/form-failure.js';
import { formatDateTime } from '../kit/format.js';
import { Pager, PAGE_SIZE, usePagedList } from '../kit/paged-list.js';
import { QueryState } from '../kit/query-state.js';
import { navigate } from '../navigation.js';
import { ScreenHeading } from '../screen-heading.js';
import { EMAIL_STATUS_LABELS, kindLabel } from './developer-words.js';

export const EMAILS_KEY = ['emails'] as const;

/** The status, and for one retrying or given up, why and what comes next. */
export function EmailStatus(props: { email: EmailSummary }) {
  const { email } = props;
  return (
    <>
      {EMAIL_STATUS_LABELS[email.status]}
      {email.status === 'retrying' && email.next_attempt_at ? (
        <> (next attempt {formatDateTime(email.next_attempt_at)})</>
      ) : null}
      {(email.status === 'retrying' || email.status === 'failed') && email.error ? (
        <>
          <br />
          <span className="developers-muted">{email.error}</span>
        </>
      ) : null}
    </>
  );
}

export function EmailLogScreen(props: { orderId: string }) {
  const [typed, setTyped] = useState(props.orderId);
  // Back or a link with another order: the field shows the address's (set while rendering, as React advises).
  const [shownOrder, setShownOrder] = useState(props.orderId);
  if (shownOrder !== props.orderId) {
    setShownOrder(props.orderId);
    setTyped(props.orderId);
  }
  const list = usePagedList(
    [...EMAILS_KEY, 'list', props.orderId],
    (cursor) => {
      const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (props.orderId) params.set('order_id', props.orderId);
      if (cursor !== undefined) params.set('starting_after', String(cursor));
      return request(EmailListSchema, 'GET', `/checkout/api/merchant/emails?${params.toString()}`);
    },
    (email) => email.id,
  );
  const failure = failureOf(list.query.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = typed.trim();
    navigate(`/admin/developers/emails${value ? `?order_id=${encodeURIComponent(value)}` : ''}`);
  };
  return (
    <div className="admin-stack">
      <ScreenHeading>Emails</ScreenHeading>
      <p>Every email the store sent to shoppers and staff, newest first, as it was sent.</p>
      <form className="admin-toolbar" onSubmit={submit} role="search" aria-label="Emails">
        <TextField
          name="order_id"
          label="Order id"
          hint="Show one order's emails (its subscriptions' too)."
          inputMode="numeric"
          autoComplete="off"
          required={false}
          value={typed}
          onChange={setTyped}
          error={failure.fields.order_id}
        />
        <div className="admin-actions developers-filter-actions">
          <Button type="submit">Show</Button>
          {props.orderId ? (
            <Button
              variant="secondary"
              onClick={() => {
                setTyped('');
                navigate('/admin/developers/emails');
              }}
            >
              Show all
            </Button>
          ) : null}
        </div>
      </form>
      {list.query.error ? (
        failure.fields.order_id ? null : (
          <QueryState error={list.query.error} loading="" />
        )
      ) : !list.query.data ? (
        <QueryState error={null} loading="Reading the emails…" />
      ) : list.items.length === 0 ? (
        <p>
          {props.orderId ? `No email was sent for order ${props.orderId}.` : 'No email has been sent yet.'}
        </p>
      ) : (
        <>
          <div className="admin-table-wrap subscriptions-scroll">
            <table className="admin-table">
              <caption className="visually-hidden">
                Emails{props.orderId ? ` of order ${props.orderId}` : ''}, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Subject</th>
                  <th scope="col">Kind</th>
                  <th scope="col">To</th>
                  <th scope="col">Status</th>
                  <th scope="col">Written</th>
                  <th scope="col">Sent</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((email) => (
                  <tr key={email.id}>
                    <td>
                      <AdminLink to={`/admin/developers/emails/${email.id}`}>{email.subject}</AdminLink>
                    </td>
                    <td>{kindLabel(email.kind)}</td>
                    <td>{email.to}</td>
                    <td>
                      <EmailStatus email={email} />
                    </td>
                    <td>{formatDateTime(email.created_at)}</td>
                    <td>{email.sent_at ? formatDateTime(email.sent_at) : 'Not yet'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Emails" list={list} />
        </>
      )}
    </div>
  );
}
