// An order paid by express payment (PayPal-style): the payment it completes with, checked, and its start at the
// provider once the order awaiting it is saved. No lock is held during the provider's call.
import type { OrderResponse } from '../../../contract/order.js';
import type { Queryable } from '../../platform/db/database.js';
import { notFound, refusal } from '../../platform/errors.js';
import {
  expireExpressPayment,
  findExpressPayment,
  setExpressProviderReference,
  type ExpressPaymentRow,
} from '../express/express-payments-repository.js';
import { viewCartState } from '../carts/cart-service.js';
import type { CartState } from '../carts/cart-state.js';
import type { OrderDependencies, OrderRequest, Plan } from './order-plan.js';

/**
 * The express payment an order is completed with, checked for this cart. Its amount may differ from the final total:
 * the payer approved before the page knew their address; the page shows the final total and this request confirms it.
 */
export async function checkExpressPayment(
  tx: Queryable,
  state: CartState,
  paymentTokenId: string,
  now: Date,
): Promise<ExpressPaymentRow> {
  const express = await findExpressPayment(tx, state.organization.id, paymentTokenId);
  if (!express || express.cart_id !== state.cart.id) {
    throw notFound('payment_token_not_found', { key: 'errors.paypal_payment_not_found' });
  }
  if (express.status === 'used') {
    throw refusal(409, 'express_payment_used', { key: 'errors.paypal_payment_used' });
  }
  if (express.status === 'cancelled') {
    throw refusal(422, 'express_payment_cancelled', { key: 'errors.paypal_payment_cancelled' });
  }
  if (express.status === 'expired' || express.expires_at <= now) {
    throw refusal(422, 'express_payment_expired', { key: 'errors.paypal_payment_expired' });
  }
  if (express.status !== 'approved') {
    throw refusal(422, 'express_payment_not_approved', { key: 'errors.paypal_payment_not_approved' });
  }
  return express;
}

/** Starts the express payment at the provider; answers the cart with the redirect to the payer's approval. */
export async function startExpress(
  deps: OrderDependencies,
  plan: Extract<Plan, { kind: 'express_start' }>,
  request: Pick<OrderRequest, 'shopper' | 'now' | 'answers'>,
): Promise<OrderResponse> {
  const { organization } = plan;
  const started = await deps.gateways.express
    .startExpress({
      amount: plan.amount,
      currency: organization.currency,
      paymentTokenId: plan.express.publicId,
      returnUrl: plan.returnUrl,
      cancelUrl: plan.returnUrl,
      idempotencyKey: `express_${plan.express.publicId}`,
      description: `Order at ${organization.name}`,
      storeForFuture: plan.storeForFuture,
    })
    .catch(() => ({ status: 'error' as const, message: 'PayPal did not answer.', retryable: true as const }));
  if (started.status !== 'created') {
    await deps.db.transaction((tx) => expireExpressPayment(tx, organization.id, plan.express.id));
    throw refusal(
      503,
      'express_unavailable',
      { key: 'errors.paypal_unavailable' },
      { headers: { 'retry-after': '5' } },
    );
  }
  // The answer is stored with the provider's reference, as an order's is with its outcome.
  return deps.db.transaction(async (tx) => {
    await setExpressProviderReference(tx, organization.id, plan.express.id, started.providerReference);
    const action = { type: 'redirect' as const, url: started.approvalUrl };
    const answer = {
      ...(await viewCartState(tx, plan.after, request.now, request.shopper.language)),
      action,
    };
    await request.answers.keep(tx, { status: 200, body: answer });
    return answer;
  });
}
