// The merchant's webhook endpoints and their deliveries (docs/webhooks.md).
import { randomBytes } from 'node:crypto';
import type {
  CreateWebhookEndpoint,
  OrderWebhookDelivery,
  UpdateWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../../contract/webhooks.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import { notFound, validationError } from '../../platform/errors.js';
import { iso } from '../../platform/http/money-input.js';
import { enqueueJob } from '../../platform/jobs/job-queue.js';
import { findOrder } from '../orders/orders-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { DELIVER_WEBHOOK_JOB, deliveryJobKey } from './webhook-events.js';
import { WEBHOOK_RETRY_DELAYS_SECONDS, webhookUrlProblem, type WebhookUrlPolicy } from './webhook-rules.js';
import {
  findWebhookAttempts,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listOrderWebhookDeliveries,
  listWebhookDeliveries,
  listWebhookEndpoints,
  markDeliveryResent,
  updateWebhookEndpoint,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhooks-repository.js';

/** A Standard Webhooks secret: whsec_ and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function present(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    active: row.active,
    secret_prefix: row.secret.slice(0, 10),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function checkUrl(url: string | undefined, policy: WebhookUrlPolicy): void {
  if (url === undefined) return;
  const problem = webhookUrlProblem(url, policy);
  if (problem) throw validationError({ url: problem });
}

const endpointNotFound = (id: number) =>
  notFound('webhook_endpoint_not_found', `There is no webhook endpoint ${id}.`);

export async function createWebhookEndpoint(
  db: Queryable,
  organization: OrganizationRow,
  input: CreateWebhookEndpoint,
  policy: WebhookUrlPolicy,
  now: Date,
): Promise<WebhookEndpoint & { secret: string }> {
  checkUrl(input.url, policy);
  const secret = newWebhookSecret();
  const row = await insertWebhookEndpoint(
    db,
    organization.id,
    { url: input.url, events: [...new Set(input.events)], description: input.description ?? '', secret },
    now,
  );
  return { ...present(row), secret };
}

export async function listWebhookEndpointPage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ data: WebhookEndpoint[]; has_more: boolean }> {
  const page = await listWebhookEndpoints(db, organization.id, options);
  return { data: page.rows.map(present), has_more: page.hasMore };
}

export async function getWebhookEndpoint(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
): Promise<WebhookEndpoint> {
  const row = await findWebhookEndpoint(db, organization.id, id);
  if (!row) throw endpointNotFound(id);
  return present(row);
}

export async function changeWebhookEndpoint(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  input: UpdateWebhookEndpoint,
  policy: WebhookUrlPolicy,
  now: Date,
): Promise<WebhookEndpoint> {
  checkUrl(input.url, policy);
  const row = await updateWebhookEndpoint(
    db,
    organization.id,
    id,
    {
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.events === undefined ? {} : { events: JSON.stringify([...new Set(input.events)]) }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.active === undefined ? {} : { active: input.active }),
    },
    now,
  );
  if (!row) throw endpointNotFound(id);
  return present(row);
}

function presentDelivery(row: WebhookDeliveryRow, attempts: WebhookAttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    message_id: row.message_id,
    event_type: row.event_type,
    status: row.status,
    attempts: attempts.map((attempt) => ({
      attempted_at: iso(attempt.attempted_at),
      status_code: attempt.status_code,
      response: attempt.response,
      duration_ms: attempt.duration_ms,
    })),
    next_attempt_at: iso(row.next_attempt_at),
    payload: row.payload,
    created_at: iso(row.created_at),
  };
}

export async function listWebhookDeliveryPage(
  db: Queryable,
  organization: OrganizationRow,
  endpointId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ data: WebhookDelivery[]; has_more: boolean }> {
  if (!(await findWebhookEndpoint(db, organization.id, endpointId))) throw endpointNotFound(endpointId);
  const page = await listWebhookDeliveries(db, organization.id, endpointId, options);
  const attempts = await findWebhookAttempts(
    db,
    organization.id,
    page.rows.map((row) => row.id),
  );
  return {
    data: page.rows.map((row) =>
      presentDelivery(
        row,
        attempts.filter((attempt) => attempt.delivery_id === row.id),
      ),
    ),
    has_more: page.hasMore,
  };
}

/** The deliveries about one order (its order events), newest first, each with the endpoint it went to. */
export async function listOrderWebhookDeliveryPage(
  db: Queryable,
  organization: OrganizationRow,
  orderId: number,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
): Promise<{ data: OrderWebhookDelivery[]; has_more: boolean }> {
  if (!(await findOrder(db, organization.id, orderId)))
    throw notFound('order_not_found', `There is no order ${orderId}.`);
  const page = await listOrderWebhookDeliveries(db, organization.id, orderId, options);
  const attempts = await findWebhookAttempts(
    db,
    organization.id,
    page.rows.map((row) => row.id),
  );
  return {
    data: page.rows.map((row) => ({
      ...presentDelivery(
        row,
        attempts.filter((attempt) => attempt.delivery_id === row.id),
      ),
      endpoint_id: row.endpoint_id,
      endpoint_url: row.endpoint_url,
    })),
    has_more: page.hasMore,
  };
}

/** Sends a delivery again, with the same webhook-id (a receiver that has it already can drop it), by a new job. */
export async function resendWebhookDelivery(
  db: Database,
  organization: OrganizationRow,
  endpointId: number,
  deliveryId: number,
  now: Date,
): Promise<{ id: number; status: 'pending' }> {
  return db.transaction(async (tx) => {
    const resends = await markDeliveryResent(tx, organization.id, endpointId, deliveryId, now);
    if (resends === null)
      throw notFound(
        'webhook_delivery_not_found',
        `There is no delivery ${deliveryId} of endpoint ${endpointId}.`,
      );
    await enqueueJob(
      tx,
      {
        kind: DELIVER_WEBHOOK_JOB,
        payload: { delivery_id: deliveryId },
        organizationId: organization.id,
        key: deliveryJobKey(deliveryId, resends),
        retryDelaysSeconds: WEBHOOK_RETRY_DELAYS_SECONDS,
      },
      now,
    );
    return { id: deliveryId, status: 'pending' as const };
  });
}
