import type { CartOrder } from '../../contract/cart.js';

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
export function describePageFailure(facts: PageFailureFacts): PageFailure {
  const { order } = facts;
  if (order?.status === 'complete') {
    const number = order.order_id !== null ? ` #${order.order_id}` : '';
    const paid = order.is_test
      ? ' as a test order (nothing was charged)'
      : facts.total > 0
        ? ' and paid'
        : '';
    return {
      title: 'Your order is placed',
      message: `Your order${number} was placed${paid}. This page could not show its confirmation: reload the page to see it.`,
      action: 'reload',
    };
  }
  if (facts.orderRequested || order?.status === 'pending' || order?.status === 'awaiting_payment') {
    return {
      title: 'Something went wrong on this page',
      message:
        'Your order may already have gone through. Reload the page to see where it stands before you pay again: one order is never charged twice.',
      action: 'reload',
    };
  }
  return {
    title: 'Something went wrong on this page',
    message:
      'Your details are kept and nothing was charged. Try again; if it keeps happening, reload the page.',
    action: 'retry',
  };
}
