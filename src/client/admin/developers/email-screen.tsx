// One email as it was sent (docs/dashboard.md, "Developers"). Only its text is shown: its HTML carries its own styles,
// which the dashboard's Content-Security-Policy (style-src 'self') refuses in any frame of the page, and loosening
// the policy for mail is not worth it.
import { useQuery } from '@tanstack/react-query';
import { EmailSchema } from '../../../contract/email.js';
import { request } from '../admin-api.js';
import { AdminLink } from '../kit/admin-link.js';
import { formatDateTime } from '../kit/format.js';
import { QueryState } from '../kit/query-state.js';
import { ScreenHeading } from '../screen-heading.js';
import { kindLabel } from './developer-words.js';
import { EmailStatus, EMAILS_KEY } from './email-log-screen.js';

export function EmailScreen(props: { id: number }) {
  const email = useQuery({
    queryKey: [...EMAILS_KEY, 'one', props.id],
    queryFn: () => request(EmailSchema, 'GET', `/checkout/api/merchant/emails/${props.id}`),
  });
  const e = email.data;
  return (
    <div className="admin-stack">
      <ScreenHeading>{`Email ${props.id}`}</ScreenHeading>
      <p>
        <AdminLink to="/admin/developers/emails">All emails</AdminLink>
      </p>
      {!e ? (
        <QueryState error={email.error} loading="Reading the email…" />
      ) : (
        <>
          <section className="admin-card" aria-labelledby="email-facts">
            <h2 id="email-facts">{e.subject}</h2>
            <dl className="subscription-facts">
              <dt>Status</dt>
              <dd>
                <EmailStatus email={e} />
              </dd>
              <dt>Kind</dt>
              <dd>{kindLabel(e.kind)}</dd>
              <dt>To</dt>
              <dd>{e.to}</dd>
              <dt>From</dt>
              <dd>{e.from}</dd>
              {e.order_id !== null ? (
                <>
                  <dt>Order</dt>
                  <dd>
                    <AdminLink to={`/admin/orders/${e.order_id}`}>Order {e.order_id}</AdminLink>
                  </dd>
                </>
              ) : null}
              {e.attempts !== null ? (
                <>
                  <dt>Attempts</dt>
                  <dd>{e.attempts}</dd>
                </>
              ) : null}
              <dt>Written</dt>
              <dd>{formatDateTime(e.created_at)}</dd>
              <dt>Sent</dt>
              <dd>{e.sent_at ? formatDateTime(e.sent_at) : 'Not yet'}</dd>
            </dl>
          </section>
          <section className="admin-card" aria-labelledby="email-text">
            <h2 id="email-text">Its text</h2>
            {e.text === null ? (
              <p>
                The text is no longer kept: email bodies are removed after the store's retention period (its
                status, address and subject stay).
              </p>
            ) : (
              <>
                <pre className="developers-email-text">{e.text}</pre>
                <p className="developers-muted">
                  The email also had an HTML version with the same words; the dashboard shows the text only.
                </p>
              </>
            )}
          </section>
        </>
      )}
    </div>
  );
}
