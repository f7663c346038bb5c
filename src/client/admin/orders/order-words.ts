// How the Orders screens name an order's states (docs/dashboard.md, "Orders").
import type { OrderDetail } from '../../../contract/merchant.js';

export const ORDER_STATUS_WORDS: Record<OrderDetail['status'], string> = {
  pending: 'Pending',
  declined: 'Declined',
  awaiting_payment: 'Awaiting payment',
  complete: 'Complete',
};

export const PAYMENT_STATUS_WORDS: Record<NonNullable<OrderDetail['payment_status']>, string> = {
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

export const REFUND_STATUS_WORDS = {
  pending: 'Pending: the processor has not confirmed it yet',
  succeeded: 'Refunded',
  failed: 'Failed',
} as const;
