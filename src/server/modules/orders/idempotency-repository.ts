import type { Queryable } from '../../platform/db/database.js';

export interface IdempotencyRow {
  request_hash: string;
  status: 'in_progress' | 'done';
  response_status: number | null;
  response_body: unknown;
  locked_until: Date | null;
  expires_at: Date;
}

/** A request taking a key: it holds the key until `lockedUntil`; the key is kept until `expiresAt`. */
export interface KeyClaim {
  organizationId: number;
  scope: string;
  /** the key's hash (hashIdempotencyKey): the key itself is never stored */
  keyHash: string;
  requestHash: string;
  lockedUntil: Date;
  expiresAt: Date;
  now: Date;
}

/** Inserts the key as in progress; true when it was new (on its own, this one statement commits it). */
export async function insertIdempotencyKey(db: Queryable, input: KeyClaim): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO idempotency_keys (organization_id, scope, key_hash, request_hash, status, locked_until, created_at, expires_at)
     VALUES ($1, $2, $3, $4, 'in_progress', $5, $6, $7)
     ON CONFLICT (organization_id, scope, key_hash) DO NOTHING`,
    [
      input.organizationId,
      input.scope,
      input.keyHash,
      input.requestHash,
      input.lockedUntil,
      input.now,
      input.expiresAt,
    ],
  );
  return inserted.rowCount > 0;
}

/**
 * A key insertIdempotencyKey found taken: its row, locked for this transaction. Should the row have gone meanwhile
 * (pruned once expired), the key is inserted as in progress for this request and null answered.
 */
export async function claimIdempotencyKey(db: Queryable, input: KeyClaim): Promise<IdempotencyRow | null> {
  for (;;) {
    const { rows } = await db.query<IdempotencyRow>(
      `SELECT request_hash, status, response_status, response_body, locked_until, expires_at
         FROM idempotency_keys WHERE organization_id = $1 AND scope = $2 AND key_hash = $3 FOR UPDATE`,
      [input.organizationId, input.scope, input.keyHash],
    );
    if (rows[0]) return rows[0];
    if (await insertIdempotencyKey(db, input)) return null;
  }
}

/** Takes over a key whose holder crashed, or that expired and is reused for a new request. */
export async function restartIdempotencyKey(db: Queryable, input: KeyClaim): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys
        SET request_hash = $4, status = 'in_progress', response_status = NULL, response_body = NULL, locked_until = $5,
            created_at = $6, expires_at = $7
      WHERE organization_id = $1 AND scope = $2 AND key_hash = $3`,
    [
      input.organizationId,
      input.scope,
      input.keyHash,
      input.requestHash,
      input.lockedUntil,
      input.now,
      input.expiresAt,
    ],
  );
}

/**
 * Which holder of a key a request is: the end of its lease, which each holder writes when it takes the key (a new key,
 * a takeover after the lease ran out, a restart after expiry) and which differs from every other holder's, since a
 * takeover comes only after the previous lease's end.
 */
export interface KeyHolder {
  organizationId: number;
  scope: string;
  keyHash: string;
  lockedUntil: Date;
}

/**
 * Stores the holder's outcome, unless the key is no longer this holder's (its lease ran out and a retry took the key
 * over): the outcome of the request that holds the key now is the one kept.
 */
export async function completeIdempotencyKey(
  db: Queryable,
  input: KeyHolder & { status: number; body: unknown },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET status = 'done', response_status = $5, response_body = $6::jsonb, locked_until = NULL
      WHERE organization_id = $1 AND scope = $2 AND key_hash = $3 AND status = 'in_progress' AND locked_until = $4`,
    [
      input.organizationId,
      input.scope,
      input.keyHash,
      input.lockedUntil,
      input.status,
      JSON.stringify(input.body),
    ],
  );
}

/** Lets the key go so a retry runs, unless another request has taken it over meanwhile. */
export async function releaseIdempotencyKey(db: Queryable, input: KeyHolder): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys
      WHERE organization_id = $1 AND scope = $2 AND key_hash = $3 AND status = 'in_progress' AND locked_until = $4`,
    [input.organizationId, input.scope, input.keyHash, input.lockedUntil],
  );
}

/** Keys are kept at least 24 hours; older ones are removed by maintenance. */
export async function deleteExpiredIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at < $1', [now]);
  return rowCount;
}
