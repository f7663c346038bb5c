// The subscriber API under /checkout/api/subscriber/ (docs/api.md, "Subscriber API"), authenticated by the
// self-service link's token, and the merchant's route that makes a fresh link.
import { IdParamsSchema } from '../../../contract/common.js';
import {
  ManageLinkSchema,
  SkipChargeSchema,
  CardActionSchema,
  SubscriberSubscriptionSchema,
  UpdateCardSchema,
} from '../../../contract/subscriber.js';
import type { AppContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import type { Router } from '../../platform/http/router.js';
import { cardProcessorForPage } from '../../platform/payments/select-gateway.js';
import type { TokenService } from '../../platform/security/tokens.js';
import { merchantOf } from '../organizations/request-context.js';
import { findSubscription } from '../subscriptions/subscriptions-repository.js';
import type { FastifyRequest } from 'fastify';
import { subscriberOf, type SubscriberChange } from './subscriber-auth.js';
import { inPageLanguage } from './subscriber-language.js';
import type { SubscriberLinks } from './subscriber-link.js';
import {
  changeAsSubscriber,
  readSubscriberSubscription,
  updateSubscriberCard,
  type SubscriberSubject,
} from './subscriber-service.js';

const BASE = '/checkout/api/subscriber/subscription';
const TAGS = ['subscriber'];
const LINK_ANSWERS = {
  401: { description: 'No link, or a bad or expired one (ask the store for a new link)' },
  404: { description: 'The subscription is not there' },
  429: { description: 'Too many requests (Retry-After)' },
} as const;

export function registerSubscriberRoutes(
  router: Router,
  context: AppContext,
  dependencies: { tokens: Pick<TokenService, 'verifySubscriberToken'>; links: SubscriberLinks },
): void {
  const { db, clock, config } = context;
  const cardProcessor = () => (context.gateways.card.saveCard ? cardProcessorForPage(config) : null);
  const read = (subject: SubscriberSubject) => readSubscriberSubscription(db, subject, cardProcessor());
  // The page's refusals in its language (subscriber-language.ts).
  const who = (request: FastifyRequest, change: SubscriberChange) =>
    inPageLanguage(request, () => subscriberOf(request, context, dependencies.tokens, change));

  router.add({
    method: 'GET',
    url: BASE,
    summary: 'Read the subscription the link names',
    description:
      'The store, the item, the price per cycle (major units), the interval, the status, the next charge, a scheduled ' +
      'cancel, the charges (newest first) and the card. Send the link token as "Authorization: Bearer <token>".',
    tags: TAGS,
    guard: 'none',
    responses: {
      200: { description: 'The subscription', schema: SubscriberSubscriptionSchema },
      ...LINK_ANSWERS,
    },
    handler: async ({ request }) => inPageLanguage(request, async () => read(await who(request, 'none'))),
  });

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    router.add({
      method: 'POST',
      url: `${BASE}/${action}`,
      summary: {
        pause: 'Pause the subscription: no charges until it is resumed',
        resume: 'Resume a paused or past-due subscription, or keep one whose cancel is scheduled',
        cancel:
          "Cancel the subscription, at once or at the end of the paid period (the store's self_service setting)",
      }[action],
      tags: TAGS,
      guard: 'none',
      responses: {
        200: { description: 'The subscription', schema: SubscriberSubscriptionSchema },
        ...LINK_ANSWERS,
        409: { description: 'Already canceled, or paused while a cancel is scheduled' },
      },
      async handler({ request }) {
        const subject = await who(request, 'status');
        return inPageLanguage(request, async () => {
          await changeAsSubscriber(db, subject, action, clock.now());
          return read(subject);
        });
      },
    });
  }

  router.add({
    method: 'POST',
    url: `${BASE}/skip`,
    summary: 'Skip the next charge: it moves one interval later',
    description:
      'Send the next_charge_at the page shows: when the charge was already moved (a second click) the answer is 409 ' +
      'and nothing more moves. Refused (409) while the subscription is paused, past due, canceled or ending.',
    tags: TAGS,
    guard: 'none',
    body: SkipChargeSchema,
    responses: {
      200: { description: 'The subscription', schema: SubscriberSubscriptionSchema },
      ...LINK_ANSWERS,
      409: { description: 'Nothing to skip now (paused, past due, canceled, ending, or already moved)' },
      422: { description: 'Invalid fields' },
    },
    async handler({ request, body }) {
      const subject = await who(request, 'status');
      return inPageLanguage(request, async () => {
        await changeAsSubscriber(db, subject, 'skip', clock.now(), new Date(body.next_charge_at));
        return read(subject);
      });
    },
  });

  router.add({
    method: 'POST',
    url: `${BASE}/card`,
    summary: 'Make a new card the subscription’s payment method',
    description:
      "card_token is the single-use token of the processor's card frame (never a card number). A card whose bank " +
      'asks for 3-D Secure is answered 202 with the action to show; send it again with authenticated: reference. A past-due ' +
      'subscription, or one waiting to retry a declined renewal, is charged with the new card at the next run.',
    tags: TAGS,
    guard: 'none',
    body: UpdateCardSchema,
    responses: {
      200: { description: 'The subscription', schema: SubscriberSubscriptionSchema },
      202: {
        description:
          'The bank asks the subscriber to authenticate the card: nothing is saved until the card is sent again with authenticated',
        schema: CardActionSchema,
      },
      ...LINK_ANSWERS,
      402: { description: 'The processor refused the card, or its authentication failed' },
      409: { description: 'Canceled, or this store takes no cards here' },
      422: { description: 'Invalid fields' },
      503: { description: 'The processor did not answer; nothing was saved' },
    },
    async handler({ request, body, reply }) {
      const subject = await who(request, 'card');
      return inPageLanguage(request, async () => {
        const action = await updateSubscriberCard(
          db,
          context.gateways.card,
          subject,
          { token: body.card_token, authenticated: body.authenticated },
          clock.now(),
        );
        if (action) return reply.status(202).send(action);
        return read(subject);
      });
    },
  });

  router.add({
    method: 'POST',
    url: '/checkout/api/merchant/subscriptions/:id/manage-link',
    summary: "Make a fresh link to the subscriber's self-service page",
    description:
      'A signed link that opens this subscription only, valid for 30 days, for the merchant to pass on to the ' +
      'subscriber (docs/subscriptions.md, "Self-service").',
    tags: ['merchant: subscriptions'],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: 'The link and when it expires', schema: ManageLinkSchema },
      401: { description: 'Bad key' },
      404: { description: 'No such subscription' },
    },
    async handler({ params, request }) {
      const organization = merchantOf(request);
      const subscription = await findSubscription(db, organization.id, params.id);
      if (!subscription) throw notFound('subscription_not_found', `There is no subscription ${params.id}.`);
      const link = dependencies.links.linkFor({
        organizationId: organization.id,
        subscriptionId: subscription.id,
      });
      return { url: link.url, expires_at: link.expiresAt.toISOString() };
    },
  });
}
