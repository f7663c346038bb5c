import {
  BumpRequestSchema,
  CartSchema,
  ClientErrorReportSchema,
  DiscountCodeRequestSchema,
  GiftRequestSchema,
  GiftResponseSchema,
  LanguageRequestSchema,
  PreviewQuerySchema,
  PreviewResponseSchema,
  QuantityRequestSchema,
  SubscribeRequestSchema,
} from '../../../contract/cart.js';
import { z } from '../../../contract/zod.js';
import { scrubCardData } from '../../../domain/card.js';
import type { AppContext } from '../../platform/context.js';
import { shopperOf } from '../organizations/request-context.js';
import type { Router } from '../../platform/http/router.js';
import { readCartJson } from './cart-service.js';
import {
  applyDiscountCode,
  changeQuantity,
  chooseSubscription,
  saveGift,
  setBump,
} from './cart-edit-service.js';
import { chooseCartLanguage } from './cart-language.js';
import { previewCart } from './cart-preview-service.js';

export const SHOPPER_BASE = '/checkout/api/vrio';

export const CartTokenParamsSchema = z.strictObject({ cart_token: z.string().check(z.maxLength(80)) });
const OrderOfferParamsSchema = z.strictObject({
  order_offer_id: z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number)),
});

const common = {
  401: { description: 'Missing, invalid or expired access token' },
  403: { description: 'Missing, invalid or expired CSRF token' },
  404: { description: 'No such cart in this organization' },
};

export function registerCartRoutes(router: Router, context: AppContext): void {
  const { db, clock } = context;

  router.add({
    method: 'GET',
    url: `${SHOPPER_BASE}/carts/:cart_token`,
    summary: 'Read a cart (a __c__ link or __g__ claim token answers a new cart with its own token)',
    tags: ['shopper'],
    guard: 'shopper',
    params: CartTokenParamsSchema,
    responses: {
      200: { description: 'The cart', schema: CartSchema },
      ...common,
      429: { description: 'A checkout link was opened too often from this address (Retry-After)' },
    },
    async handler({ params, request, reply }) {
      const json = await readCartJson(
        db,
        shopperOf(request),
        params.cart_token,
        clock.now(),
        context.limits.newCartFromLink,
      );
      return reply.type('application/json; charset=utf-8').send(json);
    },
  });

  router.add({
    method: 'PUT',
    url: `${SHOPPER_BASE}/carts/:cart_token/discount_code`,
    summary: 'Apply a discount code ("" removes it)',
    tags: ['shopper'],
    guard: 'shopper',
    params: CartTokenParamsSchema,
    body: DiscountCodeRequestSchema,
    responses: {
      200: { description: 'The updated cart', schema: CartSchema },
      ...common,
      409: { description: 'The order is already complete' },
      422: {
        description: 'The code does not apply: expired, not started, used up, minimum not met, other items',
      },
    },
    handler: ({ params, body, request }) =>
      applyDiscountCode(db, shopperOf(request), params.cart_token, body.discount_code, clock.now()),
  });

  router.add({
    method: 'GET',
    url: `${SHOPPER_BASE}/carts/:cart_token/preview`,
    summary: 'Tax and shipping for an address and a shipping profile',
    description:
      "Empty parameters may be sent as the text 'null'. Without ship_country the stored preview is dropped.",
    tags: ['shopper'],
    guard: 'shopper',
    params: CartTokenParamsSchema,
    query: PreviewQuerySchema,
    responses: {
      200: { description: 'The figures', schema: PreviewResponseSchema },
      ...common,
      422: { description: 'Bad parameters' },
    },
    handler: ({ params, query, request }) =>
      previewCart(db, shopperOf(request), params.cart_token, query, clock.now()),
  });

  router.add({
    method: 'PUT',
    url: `${SHOPPER_BASE}/carts/:cart_token/quantity`,
    summary:
      "Change a line's quantity (1-99), remove it (0) or bring a removed line back, when the cart is editable",
    tags: ['shopper'],
    guard: 'shopper',
    params: CartTokenParamsSchema,
    body: QuantityRequestSchema,
    responses: {
      200: { description: 'The updated cart', schema: CartSchema },
      ...common,
      409: {
        description: 'Not editable, already ordered, a payment in progress, or the last line of the cart',
      },
      422: { description: 'Quantity out of range' },
    },
    handler: ({ params, body, request }) =>
      changeQuantity(
        db,
        shopperOf(request),
        params.cart_token,
        { id: body.id, quantity: body.quantity },
        clock.now(),
      ),
  });

  router.add({
    method: 'PUT',
    url: `${SHOPPER_BASE}/carts/:cart_token/subscribe`,
    summary: 'Buy a line once (false) or subscribe and save (true), when its offer allows it',
    description:
      'A subscribed line is priced as a recurring line at the offer price less its percent, every interval ' +
      '(docs/subscriptions.md, "Subscribe and save"). Sending the choice the line already has changes nothing.',
    tags: ['shopper'],
    guard: 'shopper',
    params: CartTokenParamsSchema,
    body: SubscribeRequestSchema,
    responses: {
      200: { description: 'The updated cart', schema: CartSchema },
      ...common,
      409: {
        description: 'Already ordered, an express payment started, a payment in progress, or a gift claim',
      },
      422: { description: "The line's offer does not offer subscribe and save (or it is a gift)" },
    },
    handler: ({ params, body, request }) =>
      chooseSubscription(
        db,
        shopperOf(request),
        params.cart_token,
        { id: body.id, subscribe: body.subscribe },
        clock.now(),
      ),
  });

  router.add({
    method: 'PUT',
    url: `${SHOPPER_BASE}/carts/:cart_token/bumps`,
    summary:
      'Tick (selected: true) or untick an order-bump box: adds or removes its line, once however often sent',
    description:
      "Bump offers are listed in the cart's bumps. A ticked bump is a line of the cart flagged is_bump, priced, " +
      'discounted, taxed and shipped like any line (docs/checkout-rules.md, "Order bumps").',
    tags: ['shopper'],
    guard: 'shopper',
    params: CartTokenParamsSchema,
    body: BumpRequestSchema,
    responses: {
      200: { description: 'The updated cart', schema: CartSchema },
      ...common,
      409: { description: 'The order is already placed, handed to PayPal, or a payment is in progress' },
      422: { description: "The offer is not one of the cart's bumps" },
    },
    handler: ({ params, body, request }) =>
      setBump(
        db,
        shopperOf(request),
        params.cart_token,
        { offer_id: body.offer_id, selected: body.selected },
        clock.now(),
      ),
  });

  router.add({
    method: 'PUT',
    url: `${SHOPPER_BASE}/carts/:cart_token/language`,
    summary: "Keep the shopper's language with the cart: its page, reloads and emails speak it",
    description:
      "One of the store's enabled languages (docs/languages.md). The cart comes back with its catalogue text in that " +
      'language where the merchant gave it.',
    tags: ['shopper'],
    guard: 'shopper',
    params: CartTokenParamsSchema,
    body: LanguageRequestSchema,
    responses: {
      200: { description: 'The cart', schema: CartSchema },
      ...common,
      422: { description: 'The store has not enabled that language' },
    },
    handler: ({ params, body, request }) =>
      chooseCartLanguage(db, shopperOf(request), params.cart_token, body.language, clock.now()),
  });

  router.add({
    method: 'PATCH',
    url: `${SHOPPER_BASE}/order_offers/:order_offer_id/gift`,
    summary: "Save a gift line's recipient details",
    tags: ['shopper'],
    guard: 'shopper',
    params: OrderOfferParamsSchema,
    body: GiftRequestSchema,
    responses: {
      200: { description: 'The gift line', schema: GiftResponseSchema },
      ...common,
      409: { description: 'The order is already complete' },
      422: { description: 'Invalid recipient details, or not a gift line' },
    },
    handler: ({ params, body, request }) =>
      saveGift(db, shopperOf(request), params.order_offer_id, body, clock.now()),
  });

  router.add({
    method: 'POST',
    url: `${SHOPPER_BASE}/client-errors`,
    summary: 'Report an error the page hit (card data is scrubbed before it is logged)',
    tags: ['shopper'],
    guard: 'shopper',
    body: ClientErrorReportSchema,
    // A report the page could not scrub is still worth having: it is scrubbed here before it is logged.
    cardNumberFields: ['message', 'stack', 'component_stack', 'url'],
    responses: { 204: { description: 'Recorded' }, 401: common[401], 403: common[403] },
    async handler({ body, request, reply }) {
      const shopper = shopperOf(request);
      request.log.warn(
        {
          clientError: scrubCardData({ ...body, _is_vrio_checkout: undefined }),
          organization: shopper.organizationPublicId,
        },
        'page error reported',
      );
      return reply.code(204).send();
    },
  });
}
