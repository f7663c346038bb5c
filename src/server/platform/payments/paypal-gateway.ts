import { DECLINE_MESSAGES } from './decline-messages.js';
import type {
  ChargeRequest,
  ChargeResult,
  ExpressCompleteResult,
  ExpressStartRequest,
  ExpressStartResult,
  PaymentGateway,
  RefundResult,
} from './gateway.js';
import { toPaypalAmount } from './paypal-amount.js';
import { createPaypalClient, type PaypalAnswer, type PaypalClientOptions } from './paypal-client.js';
import {
  declineForIssues,
  declineForProcessorCode,
  unprocessableDecline,
  WALLET_CAPTURE_DECLINED,
  type Decline,
  type PaypalFunding,
} from './paypal-decline.js';
import { toExpressPayer } from './paypal-payer.js';
import {
  PaypalErrorSchema,
  PaypalOrderSchema,
  PaypalRefundSchema,
  type PaypalError,
  type PaypalOrder,
} from './paypal-responses.js';

export type PaypalGatewayOptions = PaypalClientOptions;

/** A recurring order asks PayPal to save the wallet (storeForFuture) so later cycles can be charged without the payer. */
export type PaypalExpressStartRequest = ExpressStartRequest;

export interface PaypalGateway extends PaymentGateway {
  startExpress(request: PaypalExpressStartRequest): Promise<ExpressStartResult>;
}

/**
 * Tokens this adapter issues for vaulted cards carry this prefix; PayPal wallet vault ids are issued as they are.
 * PayPal vault ids match ^[0-9a-zA-Z_-]+$, so the colon cannot clash with one.
 */
export const PAYPAL_CARD_TOKEN_PREFIX = 'card:';

const MAX_TEXT = 127;

const AMOUNT_UPDATE_REFUSED: Decline = {
  code: 'payment_declined',
  message:
    'PayPal did not accept the final total of this order. Choose PayPal again to approve the new total, or pay by card.',
};

type Outcome =
  { status: 'error'; message: string; retryable: true } | { status: 'declined'; decline: Decline };

/**
 * The PayPal adapter: express checkout through the Orders v2 API (create with the payer's approval, then capture),
 * rebills on vaulted PayPal wallets and cards, direct card payments and refunds.
 *
 * Card numbers and CVVs go into exactly one request body and nowhere else: results and log lines are built only from
 * our own words, PayPal's ids, status values and issue codes, never from what PayPal echoed back.
 */
export function createPaypalGateway(options: PaypalGatewayOptions): PaypalGateway {
  const client = createPaypalClient(options);
  const logger = options.logger;

  function warn(operation: string, answer: PaypalAnswer, detail: string): void {
    const error = answer.kind === 'answered' ? readError(answer.body) : null;
    logger?.warn(
      {
        paypal: {
          operation,
          status: answer.kind === 'answered' ? answer.status : answer.reason,
          name: error?.name,
          debugId: error?.debug_id,
          issues: error?.details?.map((item) => item.issue ?? '?'),
          fields: error?.details?.map((item) => item.field ?? '?'),
        },
      },
      `PayPal ${operation}: ${detail}`,
    );
  }

  /** Answers that are not a success, as the shopper's outcome. */
  function failureOutcome(operation: string, answer: PaypalAnswer, funding: PaypalFunding): Outcome {
    const unavailable = unavailableOutcome(funding);
    if (answer.kind === 'unanswered') {
      // Refused credentials were logged by the client; network failures and timeouts are PayPal's weather.
      if (answer.reason === 'unreadable') warn(operation, answer, 'answered something unreadable');
      return unavailable;
    }
    // 409 and 429: a request with this PayPal-Request-Id is still running, or we are rate limited.
    if (answer.status >= 500 || answer.status === 409 || answer.status === 429) return unavailable;
    const error = readError(answer.body);
    const issues = (error?.details ?? []).flatMap((item) => (item.issue === undefined ? [] : [item.issue]));
    const fields = (error?.details ?? []).flatMap((item) => (item.field === undefined ? [] : [item.field]));
    if (error?.name === 'RESOURCE_NOT_FOUND') issues.push('RESOURCE_NOT_FOUND');
    if (issues.includes('PREVIOUS_REQUEST_IN_PROGRESS')) return unavailable;
    const decline = declineForIssues(issues, fields, funding);
    if (decline !== null) return { status: 'declined', decline };
    warn(operation, answer, 'refused the request');
    return { status: 'declined', decline: unprocessableDecline(funding) };
  }

  /** A create-and-capture or capture answer (200/201 with the order) as a payment result. */
  function paymentResult(
    operation: string,
    answer: PaypalAnswer,
    funding: PaypalFunding,
  ):
    | { outcome: Outcome }
    | { approved: PaypalOrder; reference: string }
    | { declined: Decline; reference: string } {
    if (answer.kind === 'unanswered' || answer.status < 200 || answer.status >= 300) {
      return { outcome: failureOutcome(operation, answer, funding) };
    }
    const parsed = PaypalOrderSchema.safeParse(answer.body);
    if (!parsed.success) {
      return { outcome: failureOutcome(operation, { kind: 'unanswered', reason: 'unreadable' }, funding) };
    }
    const order = parsed.data;
    const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
    if (capture === undefined) {
      if (order.status === 'PAYER_ACTION_REQUIRED') {
        const decline = declineForIssues(['PAYER_ACTION_REQUIRED'], [], funding);
        if (decline !== null) return { outcome: { status: 'declined', decline } };
      }
      warn(operation, answer, `answered order status ${order.status ?? 'none'} without a capture`);
      return { outcome: unavailableOutcome(funding) };
    }
    if (capture.status === 'DECLINED' || capture.status === 'FAILED') {
      const decline =
        funding === 'card'
          ? declineForProcessorCode(capture.processor_response?.response_code)
          : WALLET_CAPTURE_DECLINED;
      return { declined: decline, reference: capture.id };
    }
    // PENDING: the payer paid and PayPal holds the money for review; it settles later, like a completed capture.
    return { approved: order, reference: capture.id };
  }

  function amountOrDecline(
    amount: number,
    currency: string,
    funding: PaypalFunding,
  ): { value: string } | { decline: Decline } {
    const value = toPaypalAmount(amount, currency);
    if (value !== null) return { value };
    const decline: Decline = {
      code: funding === 'card' ? 'card_declined' : 'payment_declined',
      message: `PayPal cannot take this amount in ${currency}. Try another way to pay.`,
    };
    return { decline };
  }

  /**
   * Replaces the approved order's amount with the total the shopper confirmed on our page (shipping and tax added
   * once PayPal told us the address); null when the capture may go ahead, otherwise the result to answer instead.
   */
  async function updateOrderAmount(
    orderPath: string,
    amount: number,
    currency: string,
  ): Promise<Exclude<ExpressCompleteResult, { status: 'approved' }> | null> {
    const value = toPaypalAmount(amount, currency);
    if (value === null) {
      return {
        status: 'declined',
        code: 'payment_declined',
        message: `PayPal cannot take this amount in ${currency}. Pay by card instead.`,
        reference: null,
      };
    }
    // No PayPal-Request-Id: the PATCH does not take one, and replacing the amount with the same value is harmless.
    const answer = await client.send({
      method: 'PATCH',
      path: orderPath,
      body: [
        {
          op: 'replace',
          path: "/purchase_units/@reference_id=='default'/amount",
          value: { currency_code: currency, value },
        },
      ],
    });
    if (answer.kind === 'answered' && answer.status >= 200 && answer.status < 300) return null;
    if (answer.kind === 'unanswered') {
      if (answer.reason === 'unreadable') warn('update amount', answer, 'answered something unreadable');
      return fromOutcome(unavailableOutcome('paypal'));
    }
    if (answer.status >= 500 || answer.status === 409 || answer.status === 429) {
      return fromOutcome(unavailableOutcome('paypal'));
    }
    if (
      answer.status === 422 &&
      (hasIssue(answer.body, 'ORDER_ALREADY_COMPLETED') || hasIssue(answer.body, 'ORDER_ALREADY_CAPTURED'))
    ) {
      // An earlier attempt updated and captured it, and its answer was lost: the capture call tells how that went.
      return null;
    }
    // A refused amount (an increase beyond what the payer approved, a merchant account problem, a mismatch of ours)
    // leaves the order as approved: capturing it would take a total the shopper did not confirm.
    warn('update amount', answer, 'refused the new amount');
    return { status: 'declined', ...AMOUNT_UPDATE_REFUSED, reference: null };
  }

  return {
    name: 'paypal',

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const { source } = request;
      // PayPal charges here only what it saved (a wallet, or a card an earlier version vaulted): cards typed on the
      // page go to the card processor's frames (docs/payments.md), never to this adapter.
      if (source.kind !== 'stored') {
        return {
          status: 'declined',
          code: 'payment_declined',
          message: DECLINE_MESSAGES.payment_declined,
          reference: null,
        };
      }
      const funding: PaypalFunding = source.token.startsWith(PAYPAL_CARD_TOKEN_PREFIX) ? 'card' : 'paypal';
      const amount = amountOrDecline(request.amount, request.currency, funding);
      if ('decline' in amount) return { status: 'declined', ...amount.decline, reference: null };

      const answer = await client.send({
        method: 'POST',
        path: '/v2/checkout/orders',
        requestId: request.idempotencyKey,
        representation: true,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              description: request.description.slice(0, MAX_TEXT),
              amount: { currency_code: request.currency, value: amount.value },
            },
          ],
          payment_source: paymentSource(source.token),
        },
      });
      const result = paymentResult('charge', answer, funding);
      if ('outcome' in result) return fromOutcome(result.outcome);
      if ('declined' in result)
        return { status: 'declined', ...result.declined, reference: result.reference };
      return {
        status: 'approved',
        reference: result.reference,
        paymentMethodToken: request.storeForFuture ? source.token : null,
      };
    },

    async refund(request): Promise<RefundResult> {
      const value = toPaypalAmount(request.amount, request.currency);
      if (value === null) {
        return { status: 'error', message: `PayPal cannot refund this amount in ${request.currency}.` };
      }
      const answer = await client.send({
        method: 'POST',
        path: `/v2/payments/captures/${encodeURIComponent(request.reference)}/refund`,
        requestId: request.idempotencyKey,
        representation: true,
        body: { amount: { currency_code: request.currency, value } },
      });
      if (answer.kind === 'answered' && answer.status >= 200 && answer.status < 300) {
        const refund = PaypalRefundSchema.safeParse(answer.body);
        if (refund.success && (refund.data.status === 'COMPLETED' || refund.data.status === 'PENDING')) {
          return { status: 'refunded', reference: refund.data.id };
        }
        warn(
          'refund',
          answer,
          `answered refund status ${refund.success ? refund.data.status : 'unreadable'}`,
        );
        return { status: 'error', message: 'PayPal did not complete the refund. Try again later.' };
      }
      if (
        answer.kind === 'answered' &&
        answer.status >= 400 &&
        answer.status < 500 &&
        answer.status !== 409 &&
        answer.status !== 429
      ) {
        const issues = (readError(answer.body)?.details ?? []).map((item) => item.issue);
        if (issues.includes('CAPTURE_FULLY_REFUNDED')) {
          return { status: 'error', message: 'This payment has already been refunded in full.' };
        }
        if (
          issues.includes('REFUND_AMOUNT_EXCEEDED') ||
          issues.includes('REFUND_EXCEEDED_TRANSACTION_AMOUNT')
        ) {
          return { status: 'error', message: 'The refund is larger than what is left of this payment.' };
        }
        if (issues.includes('REFUND_TIME_LIMIT_EXCEEDED')) {
          return { status: 'error', message: 'This payment is too old to be refunded through PayPal.' };
        }
        warn('refund', answer, 'refused the refund');
        return { status: 'error', message: 'PayPal refused the refund.' };
      }
      if (answer.kind === 'unanswered' && answer.reason === 'unreadable') {
        warn('refund', answer, 'answered something unreadable');
      }
      // No answer, or PayPal busy with this PayPal-Request-Id: it may have made the refund, and the same id tells.
      return { status: 'error', message: 'PayPal did not answer. Try the refund again.', retryable: true };
    },

    async startExpress(request: PaypalExpressStartRequest): Promise<ExpressStartResult> {
      const unavailable: ExpressStartResult = {
        status: 'error',
        message: 'PayPal is not available right now. Try again, or pay by card.',
        retryable: true,
      };
      const value = toPaypalAmount(request.amount, request.currency);
      if (value === null) {
        return {
          status: 'error',
          message: `PayPal cannot take this amount in ${request.currency}. Pay by card instead.`,
          retryable: true,
        };
      }
      const answer = await client.send({
        method: 'POST',
        path: '/v2/checkout/orders',
        requestId: request.idempotencyKey,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              custom_id: request.paymentTokenId,
              description: request.description.slice(0, MAX_TEXT),
              amount: { currency_code: request.currency, value },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                shipping_preference: 'GET_FROM_FILE',
                // The payer comes back to our page to review and confirm the final total, which may differ.
                user_action: 'CONTINUE',
                return_url: request.returnUrl,
                cancel_url: request.cancelUrl,
              },
              ...(request.storeForFuture === true
                ? {
                    attributes: {
                      vault: {
                        store_in_vault: 'ON_SUCCESS',
                        usage_type: 'MERCHANT',
                        customer_type: 'CONSUMER',
                      },
                    },
                  }
                : {}),
            },
          },
        },
      });
      if (answer.kind === 'unanswered' || answer.status < 200 || answer.status >= 300) {
        if (
          answer.kind === 'answered' &&
          answer.status < 500 &&
          answer.status !== 409 &&
          answer.status !== 429
        ) {
          warn('create order', answer, 'refused the order');
        } else if (answer.kind === 'unanswered' && answer.reason === 'unreadable') {
          warn('create order', answer, 'answered something unreadable');
        }
        return unavailable;
      }
      const order = PaypalOrderSchema.safeParse(answer.body);
      const links = order.success ? (order.data.links ?? []) : [];
      const approval =
        links.find((link) => link.rel === 'payer-action') ?? links.find((link) => link.rel === 'approve');
      if (!order.success || approval === undefined) {
        warn('create order', answer, 'answered without an approval link');
        return unavailable;
      }
      return { status: 'created', providerReference: order.data.id, approvalUrl: approval.href };
    },

    async completeExpress(request): Promise<ExpressCompleteResult> {
      const orderPath = `/v2/checkout/orders/${encodeURIComponent(request.providerReference)}`;
      if (request.amount !== request.approvedAmount) {
        const withoutCapture = await updateOrderAmount(orderPath, request.amount, request.currency);
        if (withoutCapture !== null) return withoutCapture;
      }
      let answer = await client.send({
        method: 'POST',
        path: `${orderPath}/capture`,
        requestId: request.idempotencyKey,
        representation: true,
      });
      if (
        answer.kind === 'answered' &&
        answer.status === 422 &&
        hasIssue(answer.body, 'ORDER_ALREADY_CAPTURED')
      ) {
        // Captured by an earlier attempt whose answer we lost: the order itself tells how that capture went.
        answer = await client.send({ method: 'GET', path: orderPath });
      }
      const result = paymentResult('capture', answer, 'paypal');
      if ('outcome' in result) return fromOutcome(result.outcome);
      if ('declined' in result)
        return { status: 'declined', ...result.declined, reference: result.reference };
      return {
        status: 'approved',
        reference: result.reference,
        payer: toExpressPayer(result.approved),
        paymentMethodToken: result.approved.payment_source?.paypal?.attributes?.vault?.id ?? null,
      };
    },
  };
}

function paymentSource(token: string): Record<string, unknown> {
  if (token.startsWith(PAYPAL_CARD_TOKEN_PREFIX)) {
    return {
      card: {
        vault_id: token.slice(PAYPAL_CARD_TOKEN_PREFIX.length),
        stored_credential: { payment_initiator: 'MERCHANT', payment_type: 'RECURRING', usage: 'SUBSEQUENT' },
      },
    };
  }
  return { paypal: { vault_id: token } };
}

function unavailableOutcome(funding: PaypalFunding): Outcome {
  return {
    status: 'error',
    message:
      funding === 'card'
        ? 'The card payment service did not answer. Try again: you will not be charged twice.'
        : 'PayPal did not answer. Try again: you will not be charged twice.',
    retryable: true,
  };
}

function fromOutcome(outcome: Outcome): Extract<ChargeResult, { status: 'error' | 'declined' }> {
  if (outcome.status === 'error') return outcome;
  return { status: 'declined', ...outcome.decline, reference: null };
}

function readError(body: unknown): PaypalError | null {
  const parsed = PaypalErrorSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

function hasIssue(body: unknown, issue: string): boolean {
  return readError(body)?.details?.some((item) => item.issue === issue) ?? false;
}
