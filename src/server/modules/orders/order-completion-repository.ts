// Completing an order in one statement: its payment, its status, its cart, its code use and (when asked) the answer.
import type { Queryable } from '../../platform/db/database.js';
import type { KeyHolder } from './idempotency-repository.js';
import type { OrderLineRow, OrderRow } from './orders-repository.js';
import type { PaymentAttemptValues } from './payment-attempts-repository.js';
import { SqlParams } from '../../platform/db/sql-params.js';
import { enqueueReceiptsOf } from '../emails/receipt-enqueue.js';
import { enqueueOrderCompletedOf } from '../webhooks/order-event-enqueue.js';

/**
 * Completes an order in one statement: records its approved payment attempt, sets it complete (ending any payment
 * lease), marks its cart ordered, counts the code use it held as used, enqueues its receipt (docs/emails.md: every
 * completion comes here, so no order completes without it), and answers the order as completed with its lines. Writes nothing and answers null when the order is complete already (another attempt completed it) or, given
 * `leaseUntil`, no longer holds that payment lease (another attempt took it over). The row lock the update takes
 * stands for the caller's. With `answer`, the same statement stores the request's answer under its Idempotency-Key,
 * as completeIdempotencyKey does, when it completes the order.
 */
export async function completeOrderWithAttempt(
  db: Queryable,
  organizationId: number,
  input: {
    orderId: number;
    attempt: PaymentAttemptValues;
    paymentMethodId?: number | null;
    /** when the order's held code use changes as it completes */
    discountReserved?: boolean | undefined;
    /** complete only while the order holds this payment lease */
    leaseUntil?: Date;
    /** the answer to store under the request's Idempotency-Key, should the order complete */
    answer?: (KeyHolder & { status: number; body: unknown }) | undefined;
  },
  now: Date,
): Promise<{ order: OrderRow; lines: OrderLineRow[] } | null> {
  const p = new SqlParams([
    organizationId,
    input.orderId,
    now,
    input.discountReserved ?? null,
    input.paymentMethodId ?? null,
    input.leaseUntil ?? null,
  ]);
  const keys = Object.keys(input.attempt) as (keyof PaymentAttemptValues)[];
  const attemptValues = p.list(keys.map((key) => input.attempt[key]));
  const answer = input.answer;
  const keepAnswer = answer
    ? `, answered AS (
       UPDATE idempotency_keys SET status = 'done', response_status = ${p.add(answer.status)},
              response_body = ${p.add(JSON.stringify(answer.body), 'jsonb')}, locked_until = NULL
        WHERE organization_id = ${p.add(answer.organizationId)} AND scope = ${p.add(answer.scope)}
          AND key_hash = ${p.add(answer.keyHash)} AND status = 'in_progress'
          AND locked_until = ${p.add(answer.lockedUntil)} AND EXISTS (SELECT 1 FROM completed)
     )`
    : '';
  const { rows } = await db.query<OrderRow & { order_lines: OrderLineRow[] }>(
    `WITH completed AS (
       UPDATE orders SET status = 'complete', completed_at = $3, payment_lease_until = NULL,
              discount_reserved = coalesce($4, discount_reserved),
              payment_method_id = coalesce($5, payment_method_id), updated_at = $3
        WHERE organization_id = $1 AND id = $2 AND status <> 'complete'
          AND ($6::timestamptz IS NULL OR payment_lease_until = $6::timestamptz)
       RETURNING *
     ), attempt AS (
       INSERT INTO payment_attempts (organization_id, ${keys.join(', ')}, created_at)
       SELECT $1, ${attemptValues}, $3 FROM completed
     ), ordered AS (
       UPDATE carts SET ordered_at = $3, updated_at = $3 FROM completed
        WHERE carts.organization_id = $1 AND carts.id = completed.cart_id
     ), used AS (
       UPDATE discount_codes SET held_count = held_count - 1, usage_count = usage_count + 1 FROM completed
        WHERE completed.discount_reserved AND discount_codes.organization_id = $1
          AND discount_codes.id = completed.discount_code_id
     ), receipt AS (
       ${enqueueReceiptsOf(p, 'completed', now)}
     ), order_event AS (
       ${enqueueOrderCompletedOf(p, 'completed', now)}
     )${keepAnswer}
     SELECT completed.*, c.token AS cart_token,
            coalesce((SELECT json_agg(l ORDER BY l.id) FROM order_lines l
                       WHERE l.organization_id = $1 AND l.order_id = $2), '[]'::json) AS order_lines
       FROM completed JOIN carts c ON c.organization_id = completed.organization_id AND c.id = completed.cart_id`,
    p.values,
  );
  const row = rows[0];
  if (!row) return null;
  const { order_lines: lines, ...order } = row;
  return { order, lines };
}

/**
 * The order as completeOrderWithAttempt leaves it, for an answer that must be made before that statement runs (the
 * statement stores it): keep in step with the statement's SET.
 */
export function asCompleted(order: OrderRow, paymentMethodId: number | null, now: Date): OrderRow {
  return {
    ...order,
    status: 'complete',
    completed_at: now,
    payment_lease_until: null,
    payment_method_id: paymentMethodId ?? order.payment_method_id,
    updated_at: now,
  };
}
