import { MoneySchema } from './common.js';
import { z } from './zod.js';

// Refunds of an order's payment through the merchant API (docs/api.md, "Refunds"). Amounts in major units, as every
// amount of the merchant API.

/** POST merchant/orders/{id}/refunds: no amount refunds all that is left of the payment. */
export const CreateRefundSchema = z.strictObject({
  amount: z.optional(MoneySchema),
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
});
export type CreateRefund = z.infer<typeof CreateRefundSchema>;

export const RefundStatusSchema = z.enum(['pending', 'succeeded', 'failed']);

export const RefundSchema = z.object({
  id: z.int(),
  order_id: z.int(),
  gateway: z.string(),
  amount: z.number(),
  currency: z.string(),
  reason: z.nullable(z.string()),
  status: RefundStatusSchema,
  /** the processor's id of the refund (Stripe re_…, PayPal's refund id) once it made it */
  processor_reference: z.nullable(z.string()),
  /** why the processor did not make it (failed), or why we do not know yet (pending) */
  error: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Refund = z.infer<typeof RefundSchema>;

/** An order's payment as the refunds left it; null for an order nothing was paid for. */
export const OrderPaymentStatusSchema = z.enum(['paid', 'partially_refunded', 'refunded']);
