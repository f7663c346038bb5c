import type { Logger } from 'pino';
import Stripe from 'stripe';
import { ACCEPTED_BRANDS_TEXT, CARD_TYPE_IDS } from '../../../domain/card.js';
import { DECLINE_MESSAGES } from './decline-messages.js';
import type {
  CancelResult,
  CardSummary,
  CardTokenDescription,
  ChargeRequest,
  ChargeResult,
  PaymentGateway,
  RefundResult,
  SaveCardRequest,
  SaveCardResult,
} from './gateway.js';
import { createStripeClient, type StripeClientOptions } from './stripe-client.js';
import { ourCardBrand, stripeDecline } from './stripe-decline.js';

export interface StripeGatewayOptions extends StripeClientOptions {
  logger?: Pick<Logger, 'warn'> | undefined;
}

export const STRIPE_UNAVAILABLE = 'The payment service did not answer. Nothing was charged; try again.';
export const STRIPE_STILL_PROCESSING =
  'Your bank is still processing this payment. We will complete the order when it confirms; do not pay again yet.';
export const REENTER_CARD = 'Enter your card details again.';
export const BRANDS_ACCEPTED = `We accept ${ACCEPTED_BRANDS_TEXT}.`;
const NO_EXPRESS = 'Stripe does not take express payments here. Pay by card, or choose PayPal.';

type Unavailable = { status: 'error'; message: string; retryable: true };
const unavailable = (message = STRIPE_UNAVAILABLE): Unavailable => ({
  status: 'error',
  message,
  retryable: true,
});

/** The card a PaymentMethod holds as we record it, or null when its brand is not one we accept. */
export function summarizeCard(card: Stripe.PaymentMethod.Card | null | undefined): CardSummary | null {
  const brand = ourCardBrand(card?.brand);
  if (!card || brand === null) return null;
  return {
    brand,
    typeId: CARD_TYPE_IDS[brand],
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
  };
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

/** Our words for a refund Stripe refused, by its error code: never Stripe's own message. */
function refundRefusal(code: string | undefined): string {
  if (code === 'charge_already_refunded')
    return 'Stripe says this payment has already been refunded in full.';
  if (code === 'amount_too_large')
    return 'Stripe says the refund is larger than what is left of this payment.';
  return `Stripe refused the refund (${code ?? 'no code'}).`;
}

/**
 * Stripe as the card processor (docs/payments.md, "Stripe"): PaymentMethods made by Stripe's frames on the page are
 * described and charged through PaymentIntents, 3-D Secure goes back to the page with the client secret, rebills
 * confirm off-session on the saved PaymentMethod and Customer.
 *
 * The card never reaches us, so no request carries it; results and log lines hold only our words, Stripe's ids,
 * statuses and codes, never Stripe's message text (which can quote what the shopper typed).
 */
export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const stripe = createStripeClient(options);
  const logger = options.logger;

  function warn(operation: string, error: unknown): void {
    const e = error instanceof Stripe.errors.StripeError ? error : null;
    logger?.warn(
      {
        stripe: {
          operation,
          type: e?.type ?? (error instanceof Error ? error.name : typeof error),
          code: e?.code,
          status: e?.statusCode,
          requestId: e?.requestId,
        },
      },
      `Stripe ${operation} failed`,
    );
  }

  /** A failed call as a charge result: a card error is a decline, anything else means nothing was decided. */
  function failure(operation: string, error: unknown): ChargeResult {
    if (error instanceof Stripe.errors.StripeCardError && error.code !== 'processing_error') {
      const { code, hard } = stripeDecline(error);
      return {
        status: 'declined',
        code,
        message: DECLINE_MESSAGES[code],
        reference: error.payment_intent?.id ?? null,
        hard,
      };
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode !== 429) {
      // Stripe refused the request itself (an unusable PaymentMethod, an amount under its minimum): retrying the
      // same request cannot help, so the shopper is told to pay another way.
      warn(operation, error);
      return {
        status: 'declined',
        code: 'payment_declined',
        message: DECLINE_MESSAGES.payment_declined,
        reference: error.payment_intent?.id ?? null,
      };
    }
    // Connection lost or timed out, Stripe's 5xx, rate limits, a key in flight: the shopper may try again.
    if (!(error instanceof Stripe.errors.StripeConnectionError)) warn(operation, error);
    return unavailable();
  }

  /** A PaymentIntent's state as our result. */
  function intentResult(
    intent: Stripe.PaymentIntent,
    stored: { storeForFuture: boolean; customer: string | null },
  ): ChargeResult {
    const paymentMethod = intent.payment_method;
    switch (intent.status) {
      case 'succeeded': {
        const card = typeof paymentMethod === 'object' && paymentMethod !== null ? paymentMethod.card : null;
        const summary = summarizeCard(card);
        return {
          status: 'approved',
          reference: intent.id,
          paymentMethodToken: stored.storeForFuture ? idOf(paymentMethod) : null,
          customerReference: stored.customer,
          ...(summary ? { summary } : {}),
        };
      }
      case 'requires_action':
        if (intent.client_secret === null) return unavailable();
        return {
          status: 'requires_action',
          reference: intent.id,
          action: { type: 'stripe', client_secret: intent.client_secret },
        };
      case 'requires_payment_method': {
        // A confirmation that failed: after an authentication, the bank's or the shopper's no.
        const failed = intent.last_payment_error;
        const decline =
          failed?.code === 'payment_intent_authentication_failure' || failed === null || failed === undefined
            ? { code: 'authentication_failed' as const, hard: false }
            : stripeDecline(failed);
        return {
          status: 'declined',
          code: decline.code,
          message: DECLINE_MESSAGES[decline.code],
          reference: intent.id,
          hard: decline.hard,
        };
      }
      case 'canceled':
        return {
          status: 'declined',
          code: 'payment_declined',
          message: DECLINE_MESSAGES.payment_declined,
          reference: intent.id,
        };
      case 'processing':
        // Not failed and not paid yet: the payment_intent.succeeded webhook completes the order when it is.
        return unavailable(STRIPE_STILL_PROCESSING);
      default:
        warn('charge', new Error(`PaymentIntent ${intent.id} is ${intent.status}`));
        return unavailable();
    }
  }

  function metadataOf(request: ChargeRequest): Record<string, string> {
    const metadata: Record<string, string> = {};
    if (request.organizationId !== undefined) metadata.organization_id = String(request.organizationId);
    if (request.orderId !== undefined) metadata.order_id = String(request.orderId);
    if (request.attempt !== undefined) metadata.attempt = String(request.attempt);
    return metadata;
  }

  async function chargeToken(request: ChargeRequest, token: string): Promise<ChargeResult> {
    let customer: string | null = null;
    try {
      if (request.storeForFuture) {
        // Its own key, derived from the charge's: a retry finds the same Customer instead of making another.
        const created = await stripe.customers.create(
          { description: request.description, metadata: metadataOf(request) },
          { idempotencyKey: `${request.idempotencyKey}_customer` },
        );
        customer = created.id;
      }
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          payment_method: token,
          confirm: true,
          // Cards and wallets only: a method that redirects away would leave the page without its answer.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: request.description,
          metadata: metadataOf(request),
          expand: ['payment_method'],
          ...(customer !== null ? { customer, setup_future_usage: 'off_session' as const } : {}),
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return intentResult(intent, { storeForFuture: request.storeForFuture, customer });
    } catch (error) {
      return failure('charge', error);
    }
  }

  async function chargeStored(
    request: ChargeRequest,
    token: string,
    customerReference: string | null,
    shopperPresent: boolean,
  ): Promise<ChargeResult> {
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          payment_method: token,
          ...(customerReference !== null ? { customer: customerReference } : {}),
          off_session: true,
          confirm: true,
          description: request.description,
          metadata: metadataOf(request),
        },
        { idempotencyKey: request.idempotencyKey },
      );
      // The method is kept already: nothing new to store.
      return intentResult(intent, { storeForFuture: false, customer: customerReference });
    } catch (error) {
      const waiting = shopperPresent ? intentAwaitingAuthentication(error) : null;
      if (waiting !== null) return confirmOnSession(request, waiting, token, customerReference);
      return failure('rebill', error);
    }
  }

  /**
   * The same PaymentIntent confirmed again with the shopper on the page (a one-click upsell, docs/payments.md,
   * "Stripe"): the bank's challenge comes back as requires_action for stripe.handleNextAction. Its own key, derived
   * from the charge's, so a retry after a crash confirms once.
   */
  async function confirmOnSession(
    request: ChargeRequest,
    intentId: string,
    token: string,
    customerReference: string | null,
  ): Promise<ChargeResult> {
    try {
      const intent = await stripe.paymentIntents.confirm(
        intentId,
        { payment_method: token, use_stripe_sdk: true },
        { idempotencyKey: `${request.idempotencyKey}_on_session` },
      );
      return intentResult(intent, { storeForFuture: false, customer: customerReference });
    } catch (error) {
      return failure('confirm on session', error);
    }
  }

  /** Stripe's 402 authentication_required for an off-session confirmation names its PaymentIntent: its id, or null. */
  function intentAwaitingAuthentication(error: unknown): string | null {
    if (!(error instanceof Stripe.errors.StripeCardError)) return null;
    if (error.code !== 'authentication_required' && error.decline_code !== 'authentication_required')
      return null;
    const intent = error.payment_intent;
    return intent && intent.status === 'requires_payment_method' ? intent.id : null;
  }

  async function chargeAuthenticated(reference: string): Promise<ChargeResult> {
    try {
      const intent = await stripe.paymentIntents.retrieve(reference, { expand: ['payment_method'] });
      const kept = intent.setup_future_usage === 'off_session';
      const result = intentResult(intent, {
        storeForFuture: kept,
        customer: kept ? idOf(intent.customer) : null,
      });
      if (result.status !== 'approved') return result;
      return {
        ...result,
        charged: { amount: intent.amount_received, currency: intent.currency.toUpperCase() },
      };
    } catch (error) {
      return failure('authenticated', error);
    }
  }

  /**
   * A PaymentIntent still waiting for the shopper's authentication, cancelled (docs/api.md, "Upsells"). Stripe refuses
   * to cancel one that succeeded meanwhile (payment_intent_unexpected_state, with the PaymentIntent): it stands.
   */
  async function cancelPayment(request: {
    reference: string;
    idempotencyKey: string;
  }): Promise<CancelResult> {
    let status: string | undefined;
    try {
      const options = { idempotencyKey: request.idempotencyKey };
      const cancellation = { cancellation_reason: 'abandoned' as const };
      status = (await stripe.paymentIntents.cancel(request.reference, cancellation, options)).status;
    } catch (error) {
      const refused = error instanceof Stripe.errors.StripeInvalidRequestError;
      if (refused && error.code === 'payment_intent_unexpected_state') status = error.payment_intent?.status;
      else if (!(error instanceof Stripe.errors.StripeConnectionError)) warn('cancel', error);
    }
    if (status === 'canceled' || status === 'succeeded') return { status };
    return unavailable();
  }

  /**
   * A subscriber's new card through a SetupIntent (docs/payments.md, "The server adapter"): confirmed at once for
   * off-session use, on the subscription's Customer (or a new one, under a key derived from the save's). A card whose
   * bank asks for 3-D Secure is answered requires_action; once the page says it was authenticated, the SetupIntent
   * is read again and says how the save ended.
   */
  async function saveCard(request: SaveCardRequest): Promise<SaveCardResult> {
    const metadata: Record<string, string> =
      request.organizationId === undefined ? {} : { organization_id: String(request.organizationId) };
    if (request.authenticated !== undefined) return authenticatedSave(request, request.authenticated);
    try {
      const customer =
        request.customerReference ??
        (
          await stripe.customers.create(
            { description: request.description, metadata },
            { idempotencyKey: `${request.idempotencyKey}_customer` },
          )
        ).id;
      const intent = await stripe.setupIntents.create(
        {
          payment_method: request.token,
          customer,
          confirm: true,
          usage: 'off_session',
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: request.description,
          metadata,
          expand: ['payment_method'],
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return setupResult(intent, customer);
    } catch (error) {
      const result = failure('save card', error);
      if (result.status === 'declined')
        return { status: 'declined', code: result.code, message: result.message };
      return unavailable();
    }
  }

  /** A SetupIntent as it stands: saved, waiting for the cardholder's bank, or refused. */
  function setupResult(intent: Stripe.SetupIntent, customer: string | null): SaveCardResult {
    const method = intent.payment_method;
    const summary = typeof method === 'object' && method !== null ? summarizeCard(method.card) : null;
    if (intent.status === 'succeeded') {
      const token = idOf(method);
      if (summary === null || token === null) {
        return { status: 'declined', code: 'payment_declined', message: BRANDS_ACCEPTED };
      }
      return {
        status: 'saved',
        paymentMethodToken: token,
        customerReference: customer,
        summary,
        testCard: false,
      };
    }
    if (intent.status === 'requires_action' && intent.client_secret) {
      return {
        status: 'requires_action',
        reference: intent.id,
        action: { type: 'stripe', client_secret: intent.client_secret },
      };
    }
    if (intent.status === 'requires_payment_method' && intent.last_setup_error) {
      const { code } = stripeDecline(intent.last_setup_error);
      return { status: 'declined', code, message: DECLINE_MESSAGES[code] };
    }
    warn('save card', new Error(`SetupIntent ${intent.id} is ${intent.status}`));
    return unavailable();
  }

  /**
   * The save the page says the cardholder authenticated: the SetupIntent read again. It must be the one made for this
   * card (its PaymentMethod is the page's token), so no other SetupIntent can be passed off as this card's.
   */
  async function authenticatedSave(request: SaveCardRequest, reference: string): Promise<SaveCardResult> {
    try {
      const intent = await stripe.setupIntents.retrieve(reference, { expand: ['payment_method'] });
      if (idOf(intent.payment_method) !== request.token) {
        return {
          status: 'declined',
          code: 'authentication_failed',
          message: DECLINE_MESSAGES.authentication_failed,
        };
      }
      if (intent.status === 'requires_payment_method') {
        return {
          status: 'declined',
          code: 'authentication_failed',
          message: DECLINE_MESSAGES.authentication_failed,
        };
      }
      return setupResult(intent, idOf(intent.customer));
    } catch (error) {
      const result = failure('save card', error);
      if (result.status === 'declined')
        return { status: 'declined', code: result.code, message: result.message };
      return unavailable();
    }
  }

  return {
    name: 'stripe',

    saveCard,

    cancelPayment,

    async describeCardToken(token): Promise<CardTokenDescription> {
      let method: Stripe.PaymentMethod;
      try {
        method = await stripe.paymentMethods.retrieve(token);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
          return { status: 'unusable', reason: 'entry_used', message: REENTER_CARD };
        }
        warn('describe', error);
        // The order path answers this as the processor being unavailable (nothing charged, try again).
        throw new Error('Stripe could not be asked about the card token', { cause: error });
      }
      // Cards, and Apple Pay or Google Pay (a card with `wallet`); a Link method carries no card brand we could
      // check or record, so it is refused like a brand we do not take (docs/payments.md, "Stripe").
      const summary = summarizeCard(method.card);
      if (summary === null) {
        return { status: 'unusable', reason: 'brand_not_accepted', message: BRANDS_ACCEPTED };
      }
      // A PaymentMethod attached to a customer was used before (docs/payments.md: tokens are single-use). Stripe does
      // not say by which PaymentIntent: a retry of an order's attempt may send it again under the same key, and
      // Stripe answers that PaymentIntent.
      if (method.customer !== null) {
        return {
          status: 'unusable',
          reason: 'entry_used',
          message: REENTER_CARD,
          usedBy: { idempotencyKey: null, summary, testCard: false },
        };
      }
      return { status: 'usable', summary, testCard: false };
    },

    async charge(request) {
      const { source } = request;
      if (source.kind === 'card_token') return chargeToken(request, source.token);
      if (source.kind === 'stored') {
        return chargeStored(request, source.token, source.customerReference, source.shopperPresent === true);
      }
      return chargeAuthenticated(source.reference);
    },

    async refund(request): Promise<RefundResult> {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: request.reference, amount: request.amount },
          { idempotencyKey: request.idempotencyKey },
        );
        if (refund.status === 'failed' || refund.status === 'canceled') {
          return { status: 'error', message: 'Stripe did not make the refund.' };
        }
        return { status: 'refunded', reference: refund.id };
      } catch (error) {
        warn('refund', error);
        // Stripe refused the request itself (charge_already_refunded, amount_too_large): asking again cannot help.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode !== 429) {
          return { status: 'error', message: refundRefusal(error.code) };
        }
        // Lost connection, timeout, Stripe's 5xx, a rate limit: it may have made the refund; the same key tells.
        return { status: 'error', message: 'Stripe did not answer the refund; try again.', retryable: true };
      }
    },

    async startExpress() {
      return unavailable(NO_EXPRESS);
    },

    async completeExpress() {
      return unavailable(NO_EXPRESS);
    },
  };
}
