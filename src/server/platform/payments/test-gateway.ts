import { createHash } from 'node:crypto';
import { digitsOnly } from '../../../domain/card.js';
import type { Queryable } from '../db/database.js';
import type { ChargeResult, DeclineCode, ExpressCompleteResult, PaymentGateway } from './gateway.js';

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

export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'Your card was declined. Try another card or PayPal.',
  insufficient_funds: 'Your card has insufficient funds. Try another card or PayPal.',
  expired_card: 'Your card has expired. Try another card or PayPal.',
  incorrect_cvc: 'The security code is wrong. Check it and try again.',
  payment_declined: 'Your payment was declined. Try another way to pay.',
};

const GATEWAY_ERROR_MESSAGE = 'The payment service did not answer. Nothing was charged; try again.';

function hashed(prefix: string, value: string): string {
  return `${prefix}_${createHash('sha256').update(value).digest('hex').slice(0, 24)}`;
}

interface LedgerRow {
  status: 'approved' | 'declined';
  decline_code: DeclineCode | null;
  reference: string;
  payment_method_token: string | null;
}

type Outcome = 'approved' | 'error' | { declined: DeclineCode };

/**
 * The built-in gateway: decides by card number and charges nothing real. Like a real gateway it remembers every
 * charge by idempotency key (in its own table, test_gateway_charges), so a retry with the same key — even after our
 * process crashed between charging and recording — answers the first result instead of charging again.
 */
export function createTestGateway(options: { db: Queryable; approvalBaseUrl: string }): PaymentGateway {
  const { db } = options;

  function decideCard(number: string, testCard: boolean): Outcome {
    const digits = digitsOnly(number);
    if (testCard) return 'approved';
    if (digits === TEST_CARDS.declined) return { declined: 'card_declined' };
    if (digits === TEST_CARDS.insufficientFunds) return { declined: 'insufficient_funds' };
    if (digits === TEST_CARDS.gatewayError) return 'error';
    return 'approved';
  }

  function decideToken(token: string): Outcome {
    if (token.startsWith(DECLINING_TOKEN_PREFIX)) return { declined: 'card_declined' };
    if (token.startsWith(INSUFFICIENT_TOKEN_PREFIX)) return { declined: 'insufficient_funds' };
    return 'approved';
  }

  async function remembered(idempotencyKey: string): Promise<LedgerRow | null> {
    const { rows } = await db.query<LedgerRow>(
      'SELECT status, decline_code, reference, payment_method_token FROM test_gateway_charges WHERE idempotency_key = $1',
      [idempotencyKey],
    );
    return rows[0] ?? null;
  }

  /** Records the outcome once; a racing duplicate answers whatever was recorded first. */
  async function record(
    kind: 'charge' | 'express',
    request: {
      idempotencyKey: string;
      amount: number;
      currency: string;
      organizationId?: number | undefined;
    },
    row: LedgerRow,
  ): Promise<LedgerRow> {
    const { rows } = await db.query<LedgerRow>(
      `INSERT INTO test_gateway_charges (organization_id, idempotency_key, kind, amount, currency, status, decline_code,
                                         reference, payment_method_token)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING status, decline_code, reference, payment_method_token`,
      [
        request.organizationId ?? null,
        request.idempotencyKey,
        kind,
        request.amount,
        request.currency,
        row.status,
        row.decline_code,
        row.reference,
        row.payment_method_token,
      ],
    );
    return rows[0] ?? (await remembered(request.idempotencyKey)) ?? row;
  }

  function toResult(row: LedgerRow): ChargeResult {
    if (row.status === 'approved') {
      return { status: 'approved', reference: row.reference, paymentMethodToken: row.payment_method_token };
    }
    const code = row.decline_code ?? 'card_declined';
    return { status: 'declined', code, message: DECLINE_MESSAGES[code], reference: row.reference };
  }

  return {
    name: 'test',

    async charge(request) {
      const outcome =
        request.source.kind === 'card'
          ? decideCard(request.source.card.number, request.testCard)
          : decideToken(request.source.token);
      // Nothing charged and nothing remembered: a retry with the same key may go through. A key charged before
      // answers its first result (below, recording answers the row already there).
      if (outcome === 'error') {
        const previous = await remembered(request.idempotencyKey);
        if (previous) return toResult(previous);
        return { status: 'error', message: GATEWAY_ERROR_MESSAGE, retryable: true };
      }
      const reference = hashed('ch_test', request.idempotencyKey);
      let token: string | null = null;
      if (outcome === 'approved' && request.storeForFuture) {
        token =
          request.source.kind === 'token'
            ? request.source.token
            : `tok_test_${hashed('pm', request.idempotencyKey).slice(3)}`;
      }
      const row: LedgerRow =
        outcome === 'approved'
          ? { status: 'approved', decline_code: null, reference, payment_method_token: token }
          : { status: 'declined', decline_code: outcome.declined, reference, payment_method_token: null };
      return toResult(await record('charge', request, row));
    },

    async refund(request) {
      return { status: 'refunded', reference: hashed('re_test', request.idempotencyKey) };
    },

    async startExpress(request) {
      return {
        status: 'created',
        providerReference: `express_test_${request.paymentTokenId}`,
        approvalUrl: `${options.approvalBaseUrl}/checkout/api/test-gateway/approve/${encodeURIComponent(request.paymentTokenId)}`,
      };
    },

    async completeExpress(request): Promise<ExpressCompleteResult> {
      const previous = await remembered(request.idempotencyKey);
      const row =
        previous ??
        (await record('express', request, {
          status: 'approved',
          decline_code: null,
          reference: hashed('ch_test_express', request.idempotencyKey),
          payment_method_token: `tok_test_express_${hashed('pm', request.providerReference).slice(3)}`,
        }));
      const result = toResult(row);
      if (result.status !== 'approved') return result;
      // The test provider's payer is what our local approval page recorded; it is not returned here.
      return {
        status: 'approved',
        reference: result.reference,
        payer: null,
        paymentMethodToken: result.paymentMethodToken,
      };
    },
  };
}
