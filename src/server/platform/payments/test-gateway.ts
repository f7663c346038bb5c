import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Queryable } from '../db/database.js';
import { DECLINE_MESSAGES, PROCESSOR_UNAVAILABLE_MESSAGE } from './decline-messages.js';
import type {
  CancelResult,
  CardSummary,
  ChargeRequest,
  ChargeResult,
  DeclineCode,
  ExpressCompleteResult,
  PaymentGateway,
  RefundResult,
} from './gateway.js';
import {
  findToken,
  insertChallenge,
  takeToken,
  TOKEN_LIFETIME_MS,
  type TestProcessorToken,
  type TokenBehaviour,
} from './test-processor/test-processor-repository.js';

/** The documented test card table (docs/payments.md, "The built-in test processor"). */
export const TEST_CARDS = {
  approved: ['4111111111111111', '5555555555554444', '6011111111111117', '378282246310005'],
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  gatewayError: '4000000000000119',
  authenticate: '4000002760003184',
} as const;

/** Stored-method tokens starting like this decline when rebilled (tests set them to simulate a card gone bad). */
export const DECLINING_TOKEN_PREFIX = 'tok_test_declined_';
export const INSUFFICIENT_TOKEN_PREFIX = 'tok_test_insufficient_';
/** …and like this, the card was reported lost or stolen: a hard decline no retry changes (docs/payments.md). */
export const LOST_CARD_TOKEN_PREFIX = 'tok_test_lost_';
/** …and like this, the bank wants the cardholder to authenticate the off-session charge. */
export const AUTHENTICATING_TOKEN_PREFIX = 'tok_test_authenticate_';

export { DECLINE_MESSAGES };

const TOKEN_USED_MESSAGE = 'This card entry was already used or has expired. Enter your card again.';

function hashed(prefix: string, value: string): string {
  return `${prefix}_${createHash('sha256').update(value).digest('hex').slice(0, 24)}`;
}

interface LedgerRow {
  status: 'approved' | 'declined' | 'requires_action';
  decline_code: DeclineCode | null;
  reference: string;
  payment_method_token: string | null;
}

type Outcome = 'approved' | 'error' | 'authenticate' | { declined: DeclineCode; hard?: true };

const BEHAVIOUR_OUTCOMES: Record<TokenBehaviour, Outcome> = {
  approve: 'approved',
  decline: { declined: 'card_declined' },
  insufficient_funds: { declined: 'insufficient_funds' },
  processor_error: 'error',
  authenticate: 'authenticate',
};

/** What a token's card charges as: an organization's test card is approved whatever its number means. */
export function tokenOutcome(token: Pick<TestProcessorToken, 'behaviour' | 'test_card'>): Outcome {
  return token.test_card ? 'approved' : BEHAVIOUR_OUTCOMES[token.behaviour];
}

/** What a stored method's token charges as, off-session: tests name a card gone bad by its prefix. */
export function storedTokenOutcome(token: string): Outcome {
  if (token.startsWith(DECLINING_TOKEN_PREFIX)) return { declined: 'card_declined' };
  if (token.startsWith(INSUFFICIENT_TOKEN_PREFIX)) return { declined: 'insufficient_funds' };
  if (token.startsWith(AUTHENTICATING_TOKEN_PREFIX)) return { declined: 'authentication_required' };
  if (token.startsWith(LOST_CARD_TOKEN_PREFIX)) return { declined: 'card_declined', hard: true };
  return 'approved';
}

function summaryOf(token: TestProcessorToken): CardSummary {
  const brand = token.test_card ? 'testcard' : (token.brand as CardSummary['brand']);
  const typeIds: Record<string, number> = {
    mastercard: 1,
    visa: 2,
    discover: 3,
    'american-express': 4,
    testcard: 2,
  };
  return {
    brand,
    typeId: typeIds[brand] ?? 2,
    last4: token.last4,
    expMonth: token.exp_month,
    expYear: token.exp_year,
  };
}

/**
 * The built-in processor: its card fields make tokens on its own origin (test-processor/), and this side charges
 * them, deciding by what the number meant; nothing real is charged. Like a real processor it remembers every charge
 * by idempotency key (in its own table, test_gateway_charges), so a retry with the same key — even after our process
 * crashed between charging and recording — answers the first result instead of charging again.
 */
export function createTestGateway(options: {
  db: Queryable;
  approvalBaseUrl: string;
  /** the test processor's origin, where its 3-D Secure challenge pages are */
  processorUrl: string;
  clock: Clock;
}): PaymentGateway {
  const { db, clock } = options;

  async function remembered(idempotencyKey: string): Promise<LedgerRow | null> {
    const { rows } = await db.query<LedgerRow>(
      'SELECT status, decline_code, reference, payment_method_token FROM test_gateway_charges WHERE idempotency_key = $1',
      [idempotencyKey],
    );
    return rows[0] ?? null;
  }

  /** Records the outcome once; a racing duplicate answers whatever was recorded first. */
  async function record(
    kind: 'charge' | 'express' | 'setup',
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

  async function challengeFor(chargeKey: string) {
    const challenge = await insertChallenge(db, chargeKey, clock.now());
    return {
      challenge,
      action: {
        type: 'challenge' as const,
        url: `${options.processorUrl}/challenge/${encodeURIComponent(challenge.id)}`,
      },
    };
  }

  async function toResult(row: LedgerRow, chargeKey: string): Promise<ChargeResult> {
    if (row.status === 'approved') {
      return { status: 'approved', reference: row.reference, paymentMethodToken: row.payment_method_token };
    }
    if (row.status === 'requires_action') {
      const { action } = await challengeFor(chargeKey);
      return { status: 'requires_action', reference: row.reference, action };
    }
    const code = row.decline_code ?? 'card_declined';
    // A declined row keeps the stored token it charged (or none): a lost card's token says the decline was hard.
    const hard = row.payment_method_token?.startsWith(LOST_CARD_TOKEN_PREFIX) ?? false;
    return { status: 'declined', code, message: DECLINE_MESSAGES[code], reference: row.reference, hard };
  }

  function rowFor(
    outcome: Exclude<Outcome, 'error'>,
    request: ChargeRequest,
    keptToken: string | null,
  ): LedgerRow {
    const reference = hashed('ch_test', request.idempotencyKey);
    if (typeof outcome === 'object')
      return {
        status: 'declined',
        decline_code: outcome.declined,
        reference,
        payment_method_token: outcome.hard ? keptToken : null,
      };
    // A card kept for later cycles is kept once the payment is approved, after its authentication too.
    const token = request.storeForFuture
      ? (keptToken ?? `tok_test_${hashed('pm', request.idempotencyKey).slice(3)}`)
      : null;
    return {
      status: outcome === 'approved' ? 'approved' : 'requires_action',
      decline_code: null,
      reference,
      payment_method_token: token,
    };
  }

  /** A payment the bank asked to authenticate, as its challenge now stands. */
  async function chargeAuthenticated(reference: string): Promise<ChargeResult> {
    const { rows } = await db.query<LedgerRow & { idempotency_key: string }>(
      `SELECT status, decline_code, reference, payment_method_token, idempotency_key
         FROM test_gateway_charges WHERE reference = $1`,
      [reference],
    );
    const row = rows[0];
    if (!row) {
      return { status: 'declined', code: 'payment_declined', message: TOKEN_USED_MESSAGE, reference: null };
    }
    if (row.status !== 'requires_action') return toResult(row, row.idempotency_key);
    const { challenge, action } = await challengeFor(row.idempotency_key);
    if (challenge.status === 'pending') return { status: 'requires_action', reference, action };
    const approved = challenge.status === 'succeeded';
    await db.query(
      `UPDATE test_gateway_charges SET status = $2, decline_code = $3
        WHERE idempotency_key = $1 AND status = 'requires_action'`,
      [row.idempotency_key, approved ? 'approved' : 'declined', approved ? null : 'authentication_failed'],
    );
    const decided = await remembered(row.idempotency_key);
    return toResult(decided ?? row, row.idempotency_key);
  }

  /**
   * Cancels a payment waiting for its challenge: a pending challenge fails (its page says so), and the payment can
   * never be approved; one the shopper passed first went through, as with a real processor.
   */
  async function cancelPayment(request: { reference: string }): Promise<CancelResult> {
    const { rows } = await db.query<{ status: LedgerRow['status']; idempotency_key: string }>(
      "SELECT status, idempotency_key FROM test_gateway_charges WHERE reference = $1 AND kind = 'charge'",
      [request.reference],
    );
    const row = rows[0];
    if (!row || row.status === 'declined') return { status: 'canceled' };
    if (row.status === 'approved') return { status: 'succeeded' };
    await db.query(
      `UPDATE test_processor_challenges SET status = 'failed', decided_at = $2
        WHERE charge_key = $1 AND status = 'pending'`,
      [row.idempotency_key, clock.now()],
    );
    const { rows: challenges } = await db.query<{ status: string }>(
      'SELECT status FROM test_processor_challenges WHERE charge_key = $1',
      [row.idempotency_key],
    );
    const passed = challenges[0]?.status === 'succeeded';
    await db.query(
      `UPDATE test_gateway_charges SET status = $2, decline_code = $3
        WHERE idempotency_key = $1 AND status = 'requires_action'`,
      [row.idempotency_key, passed ? 'approved' : 'declined', passed ? null : 'payment_declined'],
    );
    const decided = await remembered(row.idempotency_key);
    return decided?.status === 'approved' ? { status: 'succeeded' } : { status: 'canceled' };
  }

  /**
   * Refunds a charge in the ledger, as a real processor does: once per idempotency key (a retry answers the first
   * refund), and never more than is left of the charge (docs/payments.md, "The built-in test processor").
   */
  async function refundInLedger(request: {
    reference: string;
    amount: number;
    currency: string;
    idempotencyKey: string;
  }): Promise<RefundResult> {
    const reference = hashed('re_test', request.idempotencyKey);
    const { rows } = await db.query<{ reference: string }>(
      `INSERT INTO test_gateway_charges (organization_id, idempotency_key, kind, amount, currency, status, reference,
                                         refunds_reference)
       SELECT c.organization_id, $1, 'refund', $3::bigint, c.currency, 'approved', $4, c.reference
         FROM test_gateway_charges c
        WHERE c.reference = $2 AND c.kind <> 'refund' AND c.status = 'approved' AND c.currency = $5
          AND c.amount - COALESCE((SELECT sum(r.amount) FROM test_gateway_charges r
                                    WHERE r.kind = 'refund' AND r.refunds_reference = c.reference), 0) >= $3::bigint
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING reference`,
      [request.idempotencyKey, request.reference, request.amount, reference, request.currency],
    );
    if (rows[0]) return { status: 'refunded', reference: rows[0].reference };
    const { rows: known } = await db.query<{
      kind: string;
      reference: string;
      refunds_reference: string | null;
    }>('SELECT kind, reference, refunds_reference FROM test_gateway_charges WHERE idempotency_key = $1', [
      request.idempotencyKey,
    ]);
    const earlier = known[0];
    if (earlier?.kind === 'refund' && earlier.refunds_reference === request.reference) {
      return { status: 'refunded', reference: earlier.reference };
    }
    if (earlier) return { status: 'error', message: 'The test processor used this key for another request.' };
    return {
      status: 'error',
      message:
        'The test processor refused the refund: it has no such payment, or less than this is left of it.',
    };
  }

  return {
    name: 'test',

    async describeCardToken(token) {
      const card = await findToken(db, token);
      if (!card) return { status: 'unusable', reason: 'entry_used', message: TOKEN_USED_MESSAGE };
      const expired = clock.now().getTime() - card.created_at.getTime() > TOKEN_LIFETIME_MS;
      if (expired) return { status: 'unusable', reason: 'entry_used', message: TOKEN_USED_MESSAGE };
      if (card.used_by !== null) {
        return {
          status: 'unusable',
          reason: 'entry_used',
          message: TOKEN_USED_MESSAGE,
          usedBy: { idempotencyKey: card.used_by, summary: summaryOf(card), testCard: card.test_card },
        };
      }
      return { status: 'usable', summary: summaryOf(card), testCard: card.test_card };
    },

    async charge(request) {
      const { source } = request;
      if (source.kind === 'authenticated') return chargeAuthenticated(source.reference);
      // A key charged before answers its first result, whatever the token is now.
      const previous = await remembered(request.idempotencyKey);
      if (previous) return toResult(previous, request.idempotencyKey);
      let outcome: Outcome;
      if (source.kind === 'stored') {
        outcome = storedTokenOutcome(source.token);
        // A shopper on the page completes the bank's challenge there (a one-click upsell).
        if (source.shopperPresent && source.token.startsWith(AUTHENTICATING_TOKEN_PREFIX))
          outcome = 'authenticate';
      } else {
        const card = await takeToken(db, source.token, request.idempotencyKey, clock.now());
        if (!card)
          return {
            status: 'declined',
            code: 'payment_declined',
            message: TOKEN_USED_MESSAGE,
            reference: null,
          };
        outcome = tokenOutcome(card);
      }
      // Nothing charged and nothing remembered: the shopper may try again.
      if (outcome === 'error')
        return { status: 'error', message: PROCESSOR_UNAVAILABLE_MESSAGE, retryable: true };
      const kept = source.kind === 'stored' ? source.token : null;
      return toResult(
        await record('charge', request, rowFor(outcome, request, kept)),
        request.idempotencyKey,
      );
    },

    async saveCard(request) {
      // Like a charge that takes the token up for this key: the same key saves again to the same stored token.
      const card = await takeToken(db, request.token, request.idempotencyKey, clock.now());
      if (!card) return { status: 'declined', code: 'payment_declined', message: TOKEN_USED_MESSAGE };
      const outcome = tokenOutcome(card);
      if (outcome === 'error')
        return { status: 'error', message: PROCESSOR_UNAVAILABLE_MESSAGE, retryable: true };
      if (typeof outcome === 'object') {
        return { status: 'declined', code: outcome.declined, message: DECLINE_MESSAGES[outcome.declined] };
      }
      if (outcome === 'authenticate') {
        // The 3-D Secure card asks its bank's challenge first, as a charge does: a ledger row of nothing charged
        // (kind setup) under the save's key, and its challenge.
        await record(
          'setup',
          {
            idempotencyKey: request.idempotencyKey,
            amount: 0,
            currency: request.currency,
            organizationId: request.organizationId,
          },
          {
            status: 'requires_action',
            decline_code: null,
            reference: hashed('seti_test', request.idempotencyKey),
            payment_method_token: null,
          },
        );
        const { challenge, action } = await challengeFor(request.idempotencyKey);
        if (challenge.status === 'pending')
          return { status: 'requires_action', reference: challenge.id, action };
        if (challenge.status === 'failed') {
          return {
            status: 'declined',
            code: 'authentication_failed',
            message: DECLINE_MESSAGES.authentication_failed,
          };
        }
      }
      return {
        status: 'saved',
        paymentMethodToken: `tok_test_${hashed('pm', `save:${request.idempotencyKey}`).slice(3)}`,
        customerReference: null,
        summary: summaryOf(card),
        testCard: card.test_card,
      };
    },

    cancelPayment,

    refund: refundInLedger,

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
      const result = await toResult(row, request.idempotencyKey);
      if (result.status === 'requires_action')
        return { status: 'error', message: PROCESSOR_UNAVAILABLE_MESSAGE, retryable: true };
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
