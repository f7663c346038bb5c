import type { CartOrder } from '../../contract/cart.js';
import type { Translate } from '../i18n/use-t.js';

export interface PageFailureFacts {
  /** the order as the page last read it; null when no cart was read */
  order: Pick<CartOrder, 'order_id' | 'status' | 'is_test'> | null;
  /** the cart's total (major units), 0 when unknown */
  total: number;
  /** the page sent an order request, whose answer may not have come */
  orderRequested: boolean;
}

export interface PageFailure {
  title: string;
  message: string;
  /** what the page's button does: render the page again, or reload it (a chunk that failed to load stays failed) */
  action: 'retry' | 'reload';
}

/**
 * What the page says when it breaks: only what is true of the order. After an order request has left, a charge may
 * have been made, so "nothing was charged" is said only before; a placed order is named as placed (and paid).
 */
export function describePageFailure(facts: PageFailureFacts, t: Translate): PageFailure {
  const { order } = facts;
  if (order?.status === 'complete') {
    const paid = order.is_test ? 'test' : facts.total > 0 ? 'paid' : 'free';
    return {
      title: t('checkout.failure.placed_title'),
      message:
        order.order_id !== null
          ? t('checkout.failure.placed_numbered', { paid, number: String(order.order_id) })
          : t('checkout.failure.placed', { paid }),
      action: 'reload',
    };
  }
  if (facts.orderRequested || order?.status === 'pending' || order?.status === 'awaiting_payment') {
    return {
      title: t('checkout.failure.title'),
      message: t('checkout.failure.maybe_placed'),
      action: 'reload',
    };
  }
  return {
    title: t('checkout.failure.title'),
    message: t('checkout.failure.kept'),
    action: 'retry',
  };
}
