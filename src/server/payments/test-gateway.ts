import { createHash } from 'node:crypto';
import { digitsOnly } from '../../domain/card.js';
import type { ChargeResult, ExpressCompleteResult, PaymentGateway } from './gateway.js';

/** The documented test card table (docs/api.md#test-gateway). */
export const TEST_CARDS = {
  approved: ['4111111111111111', '5555555555554444', '6011111111111117', '378282246310005'],
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  gatewayError: '4000000000000119',
} as const;

/** Stored-method tokens starting like this decline when rebilled (tests set them to simulate a card gone bad). */
export const DECLINING_TOKEN_PREFIX = 'tok_test_declined_';
export const INSUFFICIENT_TOKEN_PREFIX = 'tok_test_insufficient_';

function reference(prefix: string, idempotencyKey: string): string {
  // Deterministic per idempotency key: a retried call answers the same charge, as a real gateway would.
  return `${prefix}_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
}

/**
 * The built-in gateway: decides by card number, charges nothing real. Tokens it issues for stored payment methods
 * remember the outcome class of the card (so a subscription on a card that declines later declines when rebilled).
 */
export function createTestGateway(options: { approvalBaseUrl: string }): PaymentGateway {
  const charged = new Map<string, ChargeResult>();

  function decideCard(number: string, testCard: boolean): ChargeResult['status'] | 'insufficient' {
    const digits = digitsOnly(number);
    if (testCard) return 'approved';
    if (digits === TEST_CARDS.declined) return 'declined';
    if (digits === TEST_CARDS.insufficientFunds) return 'insufficient';
    if (digits === TEST_CARDS.gatewayError) return 'error';
    return 'approved';
  }

  function decideToken(token: string): ChargeResult['status'] | 'insufficient' {
    if (token.startsWith(DECLINING_TOKEN_PREFIX)) return 'declined';
    if (token.startsWith(INSUFFICIENT_TOKEN_PREFIX)) return 'insufficient';
    return 'approved';
  }

  return {
    name: 'test',

    async charge(request) {
      const previous = charged.get(request.idempotencyKey);
      if (previous) return previous;
      const outcome =
        request.source.kind === 'card'
          ? decideCard(request.source.card.number, request.testCard)
          : decideToken(request.source.token);
      let result: ChargeResult;
      if (outcome === 'error') {
        // Nothing charged: a retry with the same key may succeed, so the outcome is not remembered.
        return {
          status: 'error',
          message: 'The payment service did not answer. Nothing was charged; try again.',
          retryable: true,
        };
      }
      if (outcome === 'declined') {
        result = {
          status: 'declined',
          code: 'card_declined',
          message: 'Your card was declined. Try another card or PayPal.',
          reference: reference('ch_test', request.idempotencyKey),
        };
      } else if (outcome === 'insufficient') {
        result = {
          status: 'declined',
          code: 'insufficient_funds',
          message: 'Your card has insufficient funds. Try another card or PayPal.',
          reference: reference('ch_test', request.idempotencyKey),
        };
      } else {
        let token: string | null = null;
        if (request.storeForFuture) {
          token =
            request.source.kind === 'token'
              ? request.source.token
              : `tok_test_${reference('pm', request.idempotencyKey).slice(3)}`;
        }
        result = {
          status: 'approved',
          reference: reference('ch_test', request.idempotencyKey),
          paymentMethodToken: token,
        };
      }
      charged.set(request.idempotencyKey, result);
      return result;
    },

    async refund(request) {
      return { status: 'refunded', reference: reference('re_test', request.idempotencyKey) };
    },

    async startExpress(request) {
      const url = new URL(
        `${options.approvalBaseUrl}/checkout/api/test-gateway/approve/${request.paymentTokenId}`,
      );
      return {
        status: 'created',
        providerReference: `express_test_${request.paymentTokenId}`,
        approvalUrl: url.toString(),
      };
    },

    async completeExpress(request): Promise<ExpressCompleteResult> {
      return {
        status: 'approved',
        reference: reference('ch_test_express', request.idempotencyKey),
        // The test provider's payer is recorded by our local approval page, not returned here.
        payer: null,
        paymentMethodToken: `tok_test_express_${reference('pm', request.providerReference).slice(3)}`,
      };
    },
  };
}
