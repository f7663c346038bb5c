// GET /checkout/api/merchant/checkout-links/{id}/preview (docs/api.md, "Checkout link preview").
import { CheckoutLinkPreviewSchema } from '../../../contract/checkout-link-preview.js';
import { IdParamsSchema } from '../../../contract/common.js';
import type { AppContext } from '../../platform/context.js';
import type { Router } from '../../platform/http/router.js';
import { merchantOf } from '../organizations/request-context.js';
import { previewCheckoutLink } from './checkout-link-preview-service.js';

export function registerCheckoutLinkPreviewRoutes(router: Router, context: AppContext): void {
  const { db, clock, config } = context;
  router.add({
    method: 'GET',
    url: '/checkout/api/merchant/checkout-links/:id/preview',
    summary: 'Preview the checkout a link opens',
    description:
      "The link's lines, its code's discount and what is charged today and later, priced as the checkout prices " +
      "them now; no cart is made and no visit is counted. Shipping and tax depend on the shopper's address and are " +
      'not included.',
    tags: ['merchant: checkout links'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The preview', schema: CheckoutLinkPreviewSchema },
      401: { description: 'Missing or invalid merchant key' },
      404: { description: 'No such checkout link in this organization' },
    },
    handler: ({ params, request }) =>
      previewCheckoutLink(db, merchantOf(request), params.id, config.publicUrl, clock.now()),
  });
}
