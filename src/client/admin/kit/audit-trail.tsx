// An object's audit trail (docs/dashboard.md, "Audit trail"): who changed it in the dashboard, what and when.
import { useQuery } from '@tanstack/react-query';
import { AuditEventListSchema } from '../../../contract/staff.js';
import { request } from '../admin-api.js';
import { formatDateTime } from './format.js';
import { QueryState } from './query-state.js';

export const auditKey = (objectType: string, objectId: string | number) =>
  ['audit-events', objectType, String(objectId)] as const;

const NAMED_ACTIONS: Record<string, string> = {
  refunds: 'Refunded',
  cancel: 'Cancelled',
  pause: 'Paused',
  resume: 'Resumed',
  skip: 'Skipped the next charge',
  revoke: 'Revoked',
  resend: 'Sent again',
  'manage-link': 'Made a self-service link',
};

/** "POST /checkout/api/merchant/orders/:id/refunds" → "Refunded": the route's change in words. */
export function describeAction(action: string): string {
  const [method = '', route = ''] = action.split(' ');
  const last = route.split('/').pop() ?? '';
  if (method === 'POST' && NAMED_ACTIONS[last]) return NAMED_ACTIONS[last];
  return { POST: 'Created', PUT: 'Changed', PATCH: 'Changed', DELETE: 'Removed' }[method] ?? action;
}

function who(event: { staff: { name: string; email: string } }): string {
  return event.staff.name ? `${event.staff.name} (${event.staff.email})` : event.staff.email;
}

/** The trail shown on an object's screen, newest first. */
export function AuditTrail(props: { objectType: string; objectId: string | number }) {
  const trail = useQuery({
    queryKey: auditKey(props.objectType, props.objectId),
    queryFn: () =>
      request(
        AuditEventListSchema,
        'GET',
        `/checkout/api/merchant/audit-events?object_type=${props.objectType}&object_id=${encodeURIComponent(
          String(props.objectId),
        )}`,
      ),
  });
  return (
    <section className="admin-card" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Changes made in the dashboard</h2>
      {!trail.data ? (
        <QueryState error={trail.error} loading="Reading the changes…" />
      ) : trail.data.data.length === 0 ? (
        <p>No one has changed this in the dashboard.</p>
      ) : (
        <ul className="admin-trail">
          {trail.data.data.map((event) => (
            <li key={event.id}>
              <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>{' '}
              {describeAction(event.action)} by {who(event)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
