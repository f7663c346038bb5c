// Webhook endpoints, their deliveries and each delivery's attempts (docs/webhooks.md).
import type { Queryable } from '../../platform/db/database.js';
import { listPage, updateRow, type Page } from '../../platform/db/sql.js';

export interface WebhookEndpointRow {
  id: number;
  organization_id: number;
  url: string;
  events: string[];
  description: string;
  secret: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookDeliveryRow {
  id: number;
  organization_id: number;
  endpoint_id: number;
  message_id: string;
  event_type: string;
  event_key: string;
  payload: unknown;
  status: 'pending' | 'succeeded' | 'failed';
  resends: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookAttemptRow {
  delivery_id: number;
  attempted_at: Date;
  status_code: number | null;
  response: string;
  duration_ms: number;
}

export async function insertWebhookEndpoint(
  db: Queryable,
  organizationId: number,
  values: { url: string; events: readonly string[]; description: string; secret: string },
  now: Date,
): Promise<WebhookEndpointRow> {
  const { rows } = await db.query<WebhookEndpointRow>(
    `INSERT INTO webhook_endpoints (organization_id, url, events, description, secret, created_at, updated_at)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $6) RETURNING *`,
    [organizationId, values.url, JSON.stringify(values.events), values.description, values.secret, now],
  );
  const row = rows[0];
  if (!row) throw new Error('the webhook endpoint was not stored');
  return row;
}

export function listWebhookEndpoints(
  db: Queryable,
  organizationId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<WebhookEndpointRow>> {
  return listPage<WebhookEndpointRow>(db, 'webhook_endpoints', organizationId, options);
}

export async function findWebhookEndpoint(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<WebhookEndpointRow | null> {
  const { rows } = await db.query<WebhookEndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = $2',
    [organizationId, id],
  );
  return rows[0] ?? null;
}

export function updateWebhookEndpoint(
  db: Queryable,
  organizationId: number,
  id: number,
  changes: { url?: string; events?: string; description?: string; active?: boolean },
  now: Date,
): Promise<WebhookEndpointRow | null> {
  return updateRow<WebhookEndpointRow>(db, 'webhook_endpoints', organizationId, id, changes, now);
}

/** The organization's active endpoints that asked for this event. */
export async function findSubscribedEndpoints(
  db: Queryable,
  organizationId: number,
  eventType: string,
): Promise<Pick<WebhookEndpointRow, 'id'>[]> {
  const { rows } = await db.query<Pick<WebhookEndpointRow, 'id'>>(
    `SELECT id FROM webhook_endpoints
      WHERE organization_id = $1 AND active AND events @> jsonb_build_array($2::text)
      ORDER BY id`,
    [organizationId, eventType],
  );
  return rows;
}

/** A delivery of the event to the endpoint; null when that endpoint has one for the event already. */
export async function insertWebhookDelivery(
  db: Queryable,
  values: {
    organizationId: number;
    endpointId: number;
    messageId: string;
    eventType: string;
    eventKey: string;
    payload: unknown;
  },
  now: Date,
): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO webhook_deliveries (organization_id, endpoint_id, message_id, event_type, event_key, payload,
                                     next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $7, $7)
     ON CONFLICT (endpoint_id, event_key) DO NOTHING RETURNING id`,
    [
      values.organizationId,
      values.endpointId,
      values.messageId,
      values.eventType,
      values.eventKey,
      JSON.stringify(values.payload),
      now,
    ],
  );
  return rows[0]?.id ?? null;
}

/** A delivery with what sending it needs from its endpoint. */
export async function findDeliveryToSend(
  db: Queryable,
  deliveryId: number,
): Promise<(WebhookDeliveryRow & { url: string; secret: string; active: boolean }) | null> {
  const { rows } = await db.query<WebhookDeliveryRow & { url: string; secret: string; active: boolean }>(
    `SELECT d.*, e.url, e.secret, e.active
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.id = $1`,
    [deliveryId],
  );
  return rows[0] ?? null;
}

/** Records one attempt and where the delivery stands after it, in one transaction. */
export async function recordWebhookAttempt(
  db: Queryable,
  attempt: WebhookAttemptRow,
  outcome: { status: WebhookDeliveryRow['status']; nextAttemptAt: Date | null },
): Promise<void> {
  await db.query(
    `WITH attempt AS (
       INSERT INTO webhook_attempts (organization_id, delivery_id, attempted_at, status_code, response, duration_ms)
       SELECT organization_id, id, $2, $3, $4, $5 FROM webhook_deliveries WHERE id = $1
     )
     UPDATE webhook_deliveries SET status = $6, next_attempt_at = $7, updated_at = $2 WHERE id = $1`,
    [
      attempt.delivery_id,
      attempt.attempted_at,
      attempt.status_code,
      attempt.response,
      attempt.duration_ms,
      outcome.status,
      outcome.nextAttemptAt,
    ],
  );
}

/** The endpoint's deliveries, newest first, keyset-paginated by id. */
export async function listWebhookDeliveries(
  db: Queryable,
  organizationId: number,
  endpointId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<WebhookDeliveryRow>> {
  const limit = options.limit ?? 50;
  const { rows } = await db.query<WebhookDeliveryRow>(
    `SELECT * FROM webhook_deliveries
      WHERE organization_id = $1 AND endpoint_id = $2 AND ($3::bigint IS NULL OR id < $3)
      ORDER BY id DESC LIMIT $4`,
    [organizationId, endpointId, options.startingAfter ?? null, limit + 1],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/**
 * The deliveries of the organization's order events (order.completed, order.payment_failed, order.refunded) whose
 * payload names this order, newest first, keyset-paginated by id, each with its endpoint's URL.
 */
export async function listOrderWebhookDeliveries(
  db: Queryable,
  organizationId: number,
  orderId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<Page<WebhookDeliveryRow & { endpoint_url: string }>> {
  const limit = options.limit ?? 50;
  const { rows } = await db.query<WebhookDeliveryRow & { endpoint_url: string }>(
    `SELECT d.*, e.url AS endpoint_url
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.organization_id = $1 AND d.event_type LIKE 'order.%'
        AND (d.payload->'data'->>'order_id') = $2::text AND ($3::bigint IS NULL OR d.id < $3)
      ORDER BY d.id DESC LIMIT $4`,
    [organizationId, String(orderId), options.startingAfter ?? null, limit + 1],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export async function findWebhookAttempts(
  db: Queryable,
  organizationId: number,
  deliveryIds: readonly number[],
): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const { rows } = await db.query<WebhookAttemptRow>(
    `SELECT delivery_id, attempted_at, status_code, response, duration_ms
       FROM webhook_attempts WHERE organization_id = $1 AND delivery_id = ANY($2::bigint[]) ORDER BY id`,
    [organizationId, deliveryIds],
  );
  return rows;
}

/** Marks a delivery to be sent again; answers its resend count (the new job's key), or null when there is none. */
export async function markDeliveryResent(
  db: Queryable,
  organizationId: number,
  endpointId: number,
  deliveryId: number,
  now: Date,
): Promise<number | null> {
  const { rows } = await db.query<{ resends: number }>(
    `UPDATE webhook_deliveries SET resends = resends + 1, status = 'pending', next_attempt_at = $4, updated_at = $4
      WHERE organization_id = $1 AND endpoint_id = $2 AND id = $3 RETURNING resends`,
    [organizationId, endpointId, deliveryId, now],
  );
  return rows[0]?.resends ?? null;
}

/**
 * Deletes the deliveries (and their attempts) last changed before `before` that are over: succeeded or failed, with no
 * job left to send them again (docs/operations.md, "Housekeeping"). Answers how many deliveries went.
 */
export async function deleteOldWebhookDeliveries(db: Queryable, before: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH old AS (
       SELECT d.id FROM webhook_deliveries d
        WHERE d.status <> 'pending' AND d.updated_at < $1
          AND NOT EXISTS (SELECT 1 FROM jobs j
                           WHERE j.status IN ('queued', 'running') AND j.payload->>'delivery_id' = d.id::text)
        ORDER BY d.id
        FOR UPDATE SKIP LOCKED
     ), attempts AS (
       DELETE FROM webhook_attempts a USING old WHERE a.delivery_id = old.id
     ), deliveries AS (
       DELETE FROM webhook_deliveries d USING old WHERE d.id = old.id RETURNING d.id
     )
     SELECT count(*)::int AS n FROM deliveries`,
    [before],
  );
  return rows[0]?.n ?? 0;
}
