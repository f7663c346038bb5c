import { createHash, createHmac } from 'node:crypto';
import type { Database, Queryable } from '../../platform/db/database.js';
import type { ApiError } from '../../../contract/errors.js';
import type { FieldMessages } from '../../../domain/field-errors.js';
import { LANGUAGES, type Language } from '../../../i18n/languages.js';
import type { Message } from '../../../i18n/message-keys.js';
import { AppError, refusal } from '../../platform/errors.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  insertIdempotencyKey,
  releaseIdempotencyKey,
  restartIdempotencyKey,
  type KeyHolder,
} from './idempotency-repository.js';

export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface Outcome<T> {
  status: number;
  body: T;
}

/** A stable hash of a request body: keys sorted, so the same request always hashes the same. */
export function hashRequest(value: unknown): string {
  const canonical = (input: unknown): unknown => {
    if (Array.isArray(input)) return input.map(canonical);
    if (input !== null && typeof input === 'object') {
      return Object.fromEntries(
        Object.keys(input as Record<string, unknown>)
          .sort()
          .map((key) => [key, canonical((input as Record<string, unknown>)[key])]),
      );
    }
    return input;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

/**
 * The secret Idempotency-Keys are hashed with, derived from the token secret that every instance already shares. A
 * key is hashed with a secret rather than alone: a client may put a card number in it, and a plain hash of a card
 * number is found again by trying the few billion numbers a card's brand and last digits leave.
 */
export function idempotencyKeySecret(tokenSecret: string): Buffer {
  return createHmac('sha256', tokenSecret).update('secure-checkout idempotency keys').digest();
}

/** What is stored of an Idempotency-Key (docs/security.md, "What is stored"): never the key itself. */
export function hashIdempotencyKey(secret: Uint8Array, organizationId: number, key: string): string {
  return createHmac('sha256', secret).update(`${organizationId}\n${key}`).digest('hex');
}

export function checkIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new AppError(
      400,
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
    );
  }
  return key;
}

/**
 * How the work stores its answer in the transaction that makes it true (an order completed, a decline recorded): a
 * process that dies after that commit leaves the answer for the retry, never a key still in progress.
 */
export interface AnswerKeeper {
  /** the request's hold on its key; null when it sent no key */
  readonly holder: KeyHolder | null;
  /** Stores the answer in `tx`, unless a retry took the key over meanwhile. */
  keep(tx: Queryable, outcome: Outcome<unknown>): Promise<void>;
  /** Tells that a statement given `holder` stored this answer itself. */
  kept(outcome: Outcome<unknown>): void;
}

/**
 * A refusal as its key keeps it: the English answer, and what it says as catalogue messages (one for each language
 * when its values are written as each language writes them), so that a replay says it in the replaying request's
 * language (docs/languages.md). The answer sent never carries `said` or `said_fields`: a replay is answered anew.
 */
export interface StoredRefusal extends ApiError {
  said?: Message | Partial<Record<Language, Message>>;
  said_fields?: FieldMessages;
}

/** The outcome a refusal stores under its key. */
export function refusalOutcome(error: AppError): Outcome<StoredRefusal> {
  const said =
    typeof error.said === 'function'
      ? Object.fromEntries(
          LANGUAGES.map((language) => [language, (error.said as (l: Language) => Message)(language)]),
        )
      : error.said;
  return {
    status: error.status,
    body: {
      ...error.toBody(),
      ...(said ? { said } : {}),
      ...(error.fields ? { said_fields: error.fields } : {}),
    },
  };
}

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && typeof (value as Message).key === 'string';
}

/**
 * A stored answer replayed: a refusal stored with its messages is the refusal again, for the error handler to say in
 * the replaying request's language; anything else (a success, a refusal stored before its messages were) is answered
 * as stored.
 */
export function replayedRefusal(outcome: Outcome<unknown>): AppError | null {
  if (outcome.status < 400) return null;
  const body = outcome.body as Partial<StoredRefusal> | null;
  if (!body || typeof body.code !== 'string' || typeof body.message !== 'string') return null;
  const { said, said_fields: fields = body.fields } = body;
  if (said === undefined && body.said_fields === undefined) return null;
  const message =
    said === undefined
      ? undefined
      : isMessage(said)
        ? said
        : (language: Language): Message => said[language] ?? said.en ?? { key: 'errors.internal_error' };
  return new AppError(outcome.status, body.code, body.message, {
    ...(fields ? { fields } : {}),
    ...(message ? { message } : {}),
  });
}

/**
 * Errors that are answers (stored and replayed), as opposed to "try again" conditions (not stored): a 5xx, or any
 * error that says when to try again (Retry-After: a 429, a payment or request in progress, a code's last uses held).
 */
function isFinal(error: AppError): boolean {
  return error.status < 500 && error.headers?.['retry-after'] === undefined;
}

/**
 * Runs work once per Idempotency-Key: a retry with the same key answers the first result (also a stored 4xx such
 * as a decline); the same key with another body is refused; a key whose request is still running answers 409.
 * "Try again" outcomes (5xx, or any with a Retry-After) release the key so the retry runs.
 */
export async function runIdempotent<T>(
  db: Database,
  input: {
    organizationId: number;
    scope: string;
    /** hashIdempotencyKey of the request's Idempotency-Key; undefined when it sent none */
    keyHash: string | undefined;
    requestHash: string;
    now: Date;
    /** how long the request holds its key; past it, a retry takes the key over (the first holder crashed) */
    leaseMs: number;
  },
  work: (answers: AnswerKeeper) => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  if (input.keyHash === undefined) {
    return work({ holder: null, keep: async () => {}, kept: () => {} });
  }
  const ids = { organizationId: input.organizationId, scope: input.scope, keyHash: input.keyHash };
  const lease = {
    ...ids,
    requestHash: input.requestHash,
    lockedUntil: new Date(input.now.getTime() + input.leaseMs),
    expiresAt: new Date(input.now.getTime() + IDEMPOTENCY_KEY_LIFETIME_MS),
    now: input.now,
  };
  // A new key (the usual case) is taken by one statement; a key seen before is examined under its row lock.
  const replay = (await insertIdempotencyKey(db, lease))
    ? null
    : await db.transaction(async (tx): Promise<Outcome<T> | null> => {
        const existing = await claimIdempotencyKey(tx, lease);
        if (existing === null) return null;
        if (existing.expires_at <= input.now) {
          await restartIdempotencyKey(tx, lease);
          return null;
        }
        if (existing.request_hash !== input.requestHash) {
          throw refusal(422, 'idempotency_key_reused', { key: 'errors.idempotency_key_reused' });
        }
        if (existing.status === 'done') {
          return { status: existing.response_status ?? 200, body: existing.response_body as T };
        }
        if (existing.locked_until !== null && existing.locked_until > input.now) {
          throw refusal(
            409,
            'request_in_progress',
            { key: 'errors.request_in_progress' },
            {
              headers: { 'retry-after': '1' },
            },
          );
        }
        await restartIdempotencyKey(tx, lease);
        return null;
      });
  if (replay) {
    const refused = replayedRefusal(replay);
    if (refused) throw refused;
    return replay;
  }

  // This request's hold on the key: should its lease run out and a retry take the key over, the outcome stored (or
  // the release) is the retry's, not this one's.
  const holder: KeyHolder = { ...ids, lockedUntil: lease.lockedUntil };
  // The body the work's transaction stored last: once the work answers it, it is committed (a transaction that rolled
  // back and ran again stored the answer of its last run).
  let keptBody: unknown = undefined;
  const answers: AnswerKeeper = {
    holder,
    async keep(tx, outcome) {
      await completeIdempotencyKey(tx, { ...holder, status: outcome.status, body: outcome.body });
      keptBody = outcome.body;
    },
    kept(outcome) {
      keptBody = outcome.body;
    },
  };
  try {
    const outcome = await work(answers);
    if (keptBody === undefined || keptBody !== outcome.body) {
      await completeIdempotencyKey(db, { ...holder, status: outcome.status, body: outcome.body });
    }
    return outcome;
  } catch (error) {
    // (A stored answer is not overwritten: the key is no longer in progress.)
    if (error instanceof AppError && isFinal(error)) {
      await completeIdempotencyKey(db, { ...holder, ...refusalOutcome(error) });
    } else {
      await releaseIdempotencyKey(db, holder).catch(() => {});
    }
    throw error;
  }
}
