import { IdParamsSchema } from '../../../contract/common.js';
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  CheckoutLinkListSchema,
  CheckoutLinkSchema,
  CreateCartSchema,
  CreateCheckoutLinkSchema,
  CreateDiscountCodeSchema,
  CreatedCartSchema,
  CreateOfferSchema,
  CreateShippingProfileSchema,
  CreateTaxRateSchema,
  DiscountCodeListSchema,
  DiscountCodeSchema,
  OfferListSchema,
  OfferSchema,
  OrderDetailSchema,
  OrderListQuerySchema,
  OrderListSchema,
  OrganizationSchema,
  ShippingProfileListSchema,
  ShippingProfileSchema,
  SubscriptionListQuerySchema,
  SubscriptionListSchema,
  SubscriptionSchema,
  TaxRateListSchema,
  TaxRateSchema,
  UpdateCheckoutLinkSchema,
  UpdateDiscountCodeSchema,
  UpdateOfferSchema,
  UpdateOrganizationSchema,
  UpdateShippingProfileSchema,
  UpdateTaxRateSchema,
} from '../../../contract/merchant.js';
import type { AppContext } from '../../platform/context.js';
import { merchantOf } from '../organizations/request-context.js';
import type { Router } from '../../platform/http/router.js';
import {
  changeCheckoutLink,
  createCheckoutLink,
  getCheckoutLink,
  listCheckoutLinkPage,
} from '../catalog/checkout-link-service.js';
import {
  changeDiscountCode,
  createDiscountCode,
  getDiscountCode,
  listDiscountCodePage,
} from '../catalog/discount-code-service.js';
import { createMerchantCart } from '../carts/merchant-cart-service.js';
import {
  getOrderDetail,
  getSubscription,
  listOrderPage,
  listSubscriptionPage,
} from './merchant-read-service.js';
import { changeOffer, createOffer, getOffer, listOfferPage } from '../catalog/offer-service.js';
import { changeOrganization, readOrganization } from '../organizations/organization-service.js';
import {
  changeShippingProfile,
  createShippingProfile,
  getShippingProfile,
  listShippingProfilePage,
} from '../catalog/shipping-profile-service.js';
import { changeTaxRate, createTaxRate, getTaxRate, listTaxRatePage } from '../catalog/tax-rate-service.js';
import { changeSubscription } from '../subscriptions/subscription-service.js';
import { createApiKey, listApiKeyPage, revokeKey } from '../organizations/api-key-service.js';
import { subscriptionSearchOf } from '../subscriptions/subscription-search.js';
import { registerCrudRoutes } from './crud-routes.js';
import { registerCheckoutLinkPreviewRoutes } from '../catalog/checkout-link-preview-routes.js';

const page = (query: { limit?: number | undefined; starting_after?: number | undefined }) => ({
  limit: query.limit,
  startingAfter: query.starting_after,
});

export function registerMerchantRoutes(router: Router, context: AppContext): void {
  const { db, clock, config } = context;

  registerCrudRoutes(router, {
    path: 'offers',
    noun: 'offer',
    tag: 'merchant: offers',
    createSchema: CreateOfferSchema,
    updateSchema: UpdateOfferSchema,
    itemSchema: OfferSchema,
    listSchema: OfferListSchema,
    create: (organization, input) => createOffer(db, organization, input),
    update: (organization, id, input) => changeOffer(db, organization, id, input, clock.now()),
    get: (organization, id) => getOffer(db, organization, id),
    list: (organization, query) => listOfferPage(db, organization, page(query)),
  });

  registerCrudRoutes(router, {
    path: 'discount-codes',
    noun: 'discount code',
    tag: 'merchant: discount codes',
    createSchema: CreateDiscountCodeSchema,
    updateSchema: UpdateDiscountCodeSchema,
    itemSchema: DiscountCodeSchema,
    listSchema: DiscountCodeListSchema,
    create: (organization, input) => db.transaction((tx) => createDiscountCode(tx, organization, input)),
    update: (organization, id, input) =>
      db.transaction((tx) => changeDiscountCode(tx, organization, id, input, clock.now())),
    get: (organization, id) => getDiscountCode(db, organization, id),
    list: (organization, query) => listDiscountCodePage(db, organization, page(query)),
  });

  registerCrudRoutes(router, {
    path: 'shipping-profiles',
    noun: 'shipping profile',
    tag: 'merchant: shipping',
    createSchema: CreateShippingProfileSchema,
    updateSchema: UpdateShippingProfileSchema,
    itemSchema: ShippingProfileSchema,
    listSchema: ShippingProfileListSchema,
    create: (organization, input) => createShippingProfile(db, organization, input),
    update: (organization, id, input) => changeShippingProfile(db, organization, id, input, clock.now()),
    get: (organization, id) => getShippingProfile(db, organization, id),
    list: (organization, query) => listShippingProfilePage(db, organization, page(query)),
  });

  registerCrudRoutes(router, {
    path: 'tax-rates',
    noun: 'tax rate',
    tag: 'merchant: tax',
    createSchema: CreateTaxRateSchema,
    updateSchema: UpdateTaxRateSchema,
    itemSchema: TaxRateSchema,
    listSchema: TaxRateListSchema,
    create: (organization, input) => createTaxRate(db, organization, input),
    update: (organization, id, input) => changeTaxRate(db, organization, id, input, clock.now()),
    get: (organization, id) => getTaxRate(db, organization, id),
    list: (organization, query) => listTaxRatePage(db, organization, page(query)),
  });

  registerCrudRoutes(router, {
    path: 'checkout-links',
    noun: 'checkout link',
    tag: 'merchant: checkout links',
    createSchema: CreateCheckoutLinkSchema,
    updateSchema: UpdateCheckoutLinkSchema,
    itemSchema: CheckoutLinkSchema,
    listSchema: CheckoutLinkListSchema,
    create: (organization, input) =>
      db.transaction((tx) => createCheckoutLink(tx, organization, input, config.publicUrl)),
    update: (organization, id, input) =>
      db.transaction((tx) => changeCheckoutLink(tx, organization, id, input, config.publicUrl, clock.now())),
    get: (organization, id) => getCheckoutLink(db, organization, id, config.publicUrl),
    list: (organization, query) => listCheckoutLinkPage(db, organization, page(query), config.publicUrl),
  });
  registerCheckoutLinkPreviewRoutes(router, context);

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/organization',
    summary: "Read the organization's settings",
    tags: ['merchant: organization'],
    guard: 'merchant',
    responses: {
      200: { description: 'The organization', schema: OrganizationSchema },
      401: { description: 'Bad key' },
    },
    handler: async ({ request }) => readOrganization(db, merchantOf(request)),
  });

  router.add({
    method: 'PATCH',
    url: '/checkout/api/merchant/organization',
    summary: 'Update client options, section order, terms, links, name or currency',
    description:
      'client_options keys (cart, testCards, subscriptionTermsCheckbox, emailOptInCheckbox) are replaced one by one; ' +
      'sections replaces the whole ordered list. The currency cannot change once carts exist (409). ' +
      'abandoned_checkout {enabled, after_minutes} (5-10080, default off after 60) keeps the part not given.',
    tags: ['merchant: organization'],
    guard: 'merchant',
    body: UpdateOrganizationSchema,
    responses: {
      200: { description: 'The updated organization', schema: OrganizationSchema },
      401: { description: 'Bad key' },
      409: { description: 'Currency locked' },
      422: { description: 'Invalid fields' },
    },
    handler: ({ body, request }) =>
      db.transaction((tx) => changeOrganization(tx, merchantOf(request), body, clock.now())),
  });

  router.add({
    method: 'POST',
    url: '/checkout/api/merchant/carts',
    summary: 'Create a cart from offers and quantities',
    description: 'Answers the cart_token and the checkout_url to send the shopper to.',
    tags: ['merchant: carts'],
    guard: 'merchant',
    body: CreateCartSchema,
    responses: {
      201: { description: 'The new cart', schema: CreatedCartSchema },
      401: { description: 'Bad key' },
      422: { description: 'Invalid fields' },
    },
    async handler({ body, request, reply }) {
      reply.code(201);
      return createMerchantCart(db, merchantOf(request), body, {
        publicUrl: config.publicUrl,
        now: clock.now(),
      });
    },
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/orders',
    summary: 'List orders, newest first, searched and filtered',
    description:
      "q: an order number (all digits, or #1042), or text found in the email or the customer's first or last name " +
      '(billing or shipping address), case-insensitive. status: pending, declined, awaiting_payment or complete. ' +
      'created_from, created_to: YYYY-MM-DD, inclusive, UTC days. test: true (test orders only) or false (live only).',
    tags: ['merchant: orders'],
    guard: 'merchant',
    query: OrderListQuerySchema,
    responses: {
      200: { description: 'A page', schema: OrderListSchema },
      401: { description: 'Bad key' },
      422: { description: 'A filter that is not valid (the fields say which)' },
    },
    handler: ({ query, request }) => listOrderPage(db, merchantOf(request), page(query), query),
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/orders/:id',
    summary: 'Read an order with its lines, payment attempts, consent and gifts',
    tags: ['merchant: orders'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The order', schema: OrderDetailSchema },
      401: { description: 'Bad key' },
      404: { description: 'No such order' },
    },
    handler: ({ params, request }) => getOrderDetail(db, merchantOf(request), params.id, config.publicUrl),
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/subscriptions',
    summary: 'List subscriptions, newest first',
    description:
      'status (active, paused, past_due, cancelled) and test (true or false) keep those; q keeps the subscriptions ' +
      "whose customer's email contains it (any case), or the one with that id when it is all digits.",
    tags: ['merchant: subscriptions'],
    guard: 'merchant',
    query: SubscriptionListQuerySchema,
    responses: {
      200: { description: 'A page', schema: SubscriptionListSchema },
      401: { description: 'Bad key' },
      422: { description: 'A filter with a value it does not take' },
    },
    handler: ({ query, request }) =>
      listSubscriptionPage(db, merchantOf(request), {
        ...page(query),
        status: query.status,
        isTest: query.test,
        search: subscriptionSearchOf(query.q),
      }),
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/subscriptions/:id',
    summary: 'Read a subscription with its charges',
    tags: ['merchant: subscriptions'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The subscription', schema: SubscriptionSchema },
      401: { description: 'Bad key' },
      404: { description: 'No such subscription' },
    },
    handler: ({ params, request }) => getSubscription(db, merchantOf(request), params.id),
  });

  router.add({
    method: 'POST',
    url: '/checkout/api/merchant/api-keys',
    summary: 'Create a merchant API key (the key is shown once; only its hash is kept)',
    tags: ['merchant: API keys'],
    guard: 'merchant',
    body: CreateApiKeySchema,
    responses: {
      201: { description: 'The new key', schema: CreatedApiKeySchema },
      401: { description: 'Bad key' },
    },
    async handler({ body, request, reply }) {
      reply.code(201);
      return createApiKey(db, merchantOf(request), body.label ?? '', request.merchantKeyId);
    },
  });

  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/api-keys',
    summary: "List the organization's API keys (prefixes only)",
    tags: ['merchant: API keys'],
    guard: 'merchant',
    responses: {
      200: { description: 'The keys', schema: ApiKeyListSchema },
      401: { description: 'Bad key' },
    },
    handler: ({ request }) => listApiKeyPage(db, merchantOf(request), request.merchantKeyId),
  });

  router.add({
    method: 'POST',
    url: '/checkout/api/merchant/api-keys/:id/revoke',
    summary: 'Revoke an API key at once, on every instance',
    tags: ['merchant: API keys'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The revoked key', schema: ApiKeySchema },
      401: { description: 'Bad key' },
      404: { description: 'No such key' },
      409: { description: 'The key this request is made with' },
    },
    handler: ({ params, request }) =>
      revokeKey(db, merchantOf(request), params.id, request.merchantKeyId, clock.now()),
  });

  router.add({
    method: 'POST',
    url: '/checkout/api/merchant/subscriptions/:id/skip',
    summary: 'Skip the next charge: it moves one interval later',
    description:
      "The same change as the subscriber's own skip (docs/subscriptions.md), made by the merchant: only an active " +
      'subscription with no cancel scheduled has a charge to skip.',
    tags: ['merchant: subscriptions'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The subscription', schema: SubscriptionSchema },
      401: { description: 'Bad key' },
      404: { description: 'No such subscription' },
      409: { description: 'Nothing to skip now (paused, past due, canceled, ending, or being charged)' },
    },
    handler: ({ params, request }) =>
      changeSubscription(db, merchantOf(request), params.id, 'skip', clock.now()),
  });

  for (const action of ['cancel', 'pause', 'resume'] as const) {
    router.add({
      method: 'POST',
      url: `/checkout/api/merchant/subscriptions/:id/${action}`,
      summary: {
        cancel: 'Cancel a subscription (final)',
        pause: 'Pause a subscription: no charges until it is resumed',
        resume: 'Resume a paused or past-due subscription',
      }[action],
      tags: ['merchant: subscriptions'],
      guard: 'merchant',
      params: IdParamsSchema,
      responses: {
        200: { description: 'The subscription', schema: SubscriptionSchema },
        401: { description: 'Bad key' },
        404: { description: 'No such subscription' },
        409: { description: 'Already canceled' },
      },
      handler: ({ params, request }) =>
        changeSubscription(db, merchantOf(request), params.id, action, clock.now()),
    });
  }
}
