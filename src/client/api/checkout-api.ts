import type { ClientErrorReport, GiftRequest } from '../../contract/cart.js';
import type { CreateOrder, UpdateOrder } from '../../contract/order.js';
import type { PreviewParam } from '../../domain/preview-query.js';
import { orderRequestFor } from '../../domain/order-attempt.js';
import type { HttpClient } from './http-client.js';
import { lazySchema } from './lazy-schema.js';

const CartSchema = lazySchema((schemas) => schemas.CartSchema);
const PreviewResponseSchema = lazySchema((schemas) => schemas.PreviewResponseSchema);
const GiftResponseSchema = lazySchema((schemas) => schemas.GiftResponseSchema);
const OrderResponseSchema = lazySchema((schemas) => schemas.OrderResponseSchema);
const PaymentTokenSchema = lazySchema((schemas) => schemas.PaymentTokenSchema);

type Unmarked<T> = Omit<T, '_is_vrio_checkout' | 'ip_address'>;

const cartPath = (token: string) => `carts/${encodeURIComponent(token)}`;

/**
 * The shopper API (docs/api.md), one typed function per call; answers are parsed with the contract's schemas
 * (loaded on first use, see lazy-schema.ts).
 */
export function createCheckoutApi(http: HttpClient) {
  // Once an order request has left, the page can no longer say that nothing was charged (errors/page-failure.ts).
  let orderRequested = false;
  return {
    http,
    /** whether this page has sent an order request (its answer may not have come) */
    get orderRequested() {
      return orderRequested;
    },
    getCart: (token: string) => http.request({ method: 'GET', path: cartPath(token), schema: CartSchema }),

    applyDiscountCode: (token: string, discountCode: string) =>
      http.request({
        method: 'PUT',
        path: `${cartPath(token)}/discount_code`,
        body: { discount_code: discountCode },
        schema: CartSchema,
      }),

    getPreview: (token: string, params: Record<PreviewParam, string>) =>
      http.request({
        method: 'GET',
        path: `${cartPath(token)}/preview`,
        query: params,
        schema: PreviewResponseSchema,
      }),

    setQuantity: (token: string, orderOfferId: number, quantity: number) =>
      http.request({
        method: 'PUT',
        path: `${cartPath(token)}/quantity`,
        body: { id: orderOfferId, quantity },
        schema: CartSchema,
      }),

    /** Buy a line once (false) or subscribe and save (true): PUT carts/{token}/subscribe. */
    setSubscribed: (token: string, orderOfferId: number, subscribe: boolean) =>
      http.request({
        method: 'PUT',
        path: `${cartPath(token)}/subscribe`,
        body: { id: orderOfferId, subscribe },
        schema: CartSchema,
      }),

    updateGift: (gift: Unmarked<GiftRequest>) =>
      http.request({
        method: 'PATCH',
        path: `order_offers/${gift.order_offer_id}/gift`,
        body: gift,
        schema: GiftResponseSchema,
      }),

    /** POST orders for the first attempt, PUT orders/{order_id} once the cart has an order. */
    placeOrder: (
      orderId: number | null,
      body: Unmarked<CreateOrder> | Unmarked<UpdateOrder>,
      idempotencyKey: string,
    ) => {
      const target = orderRequestFor(orderId);
      orderRequested = true;
      return http.request({
        method: target.method,
        path: target.path,
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
        schema: OrderResponseSchema,
      });
    },

    getPaymentToken: (token: string, paymentTokenId: string) =>
      http.request({
        method: 'GET',
        path: `${cartPath(token)}/payment_tokens/${encodeURIComponent(paymentTokenId)}`,
        schema: PaymentTokenSchema,
      }),

    reportClientError: (report: Unmarked<ClientErrorReport>) =>
      http.request({ method: 'POST', path: 'client-errors', body: report, schema: null }),
  };
}

export type CheckoutApi = ReturnType<typeof createCheckoutApi>;
