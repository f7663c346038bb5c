// The built-in test processor's own records (docs/payments.md, "The built-in test processor"): its single-use card
// tokens and its 3-D Secure challenges. What a number means is kept, never the number or the security code.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database.js';

export type TokenBehaviour =
  'approve' | 'decline' | 'insufficient_funds' | 'processor_error' | 'authenticate';
export type ChallengeStatus = 'pending' | 'succeeded' | 'failed';

export interface TestProcessorToken {
  token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: TokenBehaviour;
  test_card: boolean;
  created_at: Date;
  used_at: Date | null;
  /** the idempotency key of the charge that used it */
  used_by: string | null;
}

export interface TestProcessorChallenge {
  id: string;
  charge_key: string;
  status: ChallengeStatus;
}

/** A token lasts this long unused, as a processor's single-use tokens do. */
export const TOKEN_LIFETIME_MS = 30 * 60 * 1000;

const TOKEN_COLUMNS =
  'token, brand, last4, exp_month, exp_year, behaviour, test_card, created_at, used_at, used_by';

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}

export async function insertToken(
  db: Queryable,
  values: Omit<TestProcessorToken, 'token' | 'created_at' | 'used_at' | 'used_by'>,
  now: Date,
): Promise<TestProcessorToken> {
  const { rows } = await db.query<TestProcessorToken>(
    `INSERT INTO test_processor_tokens (token, brand, last4, exp_month, exp_year, behaviour, test_card, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING ${TOKEN_COLUMNS}`,
    [
      newId('tok_test'),
      values.brand,
      values.last4,
      values.exp_month,
      values.exp_year,
      values.behaviour,
      values.test_card,
      now,
    ],
  );
  return rows[0]!;
}

export async function findToken(db: Queryable, token: string): Promise<TestProcessorToken | null> {
  const { rows } = await db.query<TestProcessorToken>(
    `SELECT ${TOKEN_COLUMNS} FROM test_processor_tokens WHERE token = $1`,
    [token],
  );
  return rows[0] ?? null;
}

/**
 * Uses the token up for the charge keyed `chargeKey`; null when it is unknown, expired or used by another charge
 * (one statement: two charges cannot both take it). The same charge again takes it again.
 */
export async function takeToken(
  db: Queryable,
  token: string,
  chargeKey: string,
  now: Date,
): Promise<TestProcessorToken | null> {
  const { rows } = await db.query<TestProcessorToken>(
    `UPDATE test_processor_tokens SET used_at = coalesce(used_at, $2), used_by = $4
      WHERE token = $1 AND (used_by IS NULL OR used_by = $4) AND created_at > $3
      RETURNING ${TOKEN_COLUMNS}`,
    [token, now, new Date(now.getTime() - TOKEN_LIFETIME_MS), chargeKey],
  );
  return rows[0] ?? null;
}

export async function insertChallenge(
  db: Queryable,
  chargeKey: string,
  now: Date,
): Promise<TestProcessorChallenge> {
  const { rows } = await db.query<TestProcessorChallenge>(
    `INSERT INTO test_processor_challenges (id, charge_key, status, created_at) VALUES ($1, $2, 'pending', $3)
     ON CONFLICT (charge_key) DO UPDATE SET charge_key = EXCLUDED.charge_key
     RETURNING id, charge_key, status`,
    [newId('auth_test'), chargeKey, now],
  );
  return rows[0]!;
}

export async function findChallenge(db: Queryable, id: string): Promise<TestProcessorChallenge | null> {
  const { rows } = await db.query<TestProcessorChallenge>(
    'SELECT id, charge_key, status FROM test_processor_challenges WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/** Decides a pending challenge once; answers the challenge as it now is (null when unknown). */
export async function decideChallenge(
  db: Queryable,
  id: string,
  status: Exclude<ChallengeStatus, 'pending'>,
  now: Date,
): Promise<TestProcessorChallenge | null> {
  const { rows } = await db.query<TestProcessorChallenge>(
    `UPDATE test_processor_challenges SET status = $2, decided_at = $3
      WHERE id = $1 AND status = 'pending'
      RETURNING id, charge_key, status`,
    [id, status, now],
  );
  return rows[0] ?? (await findChallenge(db, id));
}
