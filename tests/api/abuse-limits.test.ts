import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/platform/clock.js';
import { AppError } from '../../src/server/platform/errors.js';
import { createLogger } from '../../src/server/platform/logging.js';
import {
  ABUSE_LIMITS,
  ABUSE_LIMITS_RETENTION_MS,
  createAbuseLimits,
  type AbuseLimits,
} from '../../src/server/platform/security/abuse-limits.js';
import { createPostgresRateLimitStore } from '../../src/server/platform/security/postgres-rate-limit-store.js';
import type { RateLimitStore } from '../../src/server/platform/security/rate-limit-store.js';
import { createRedisRateLimitStore } from '../../src/server/platform/security/redis-rate-limit-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

// Redis-backed limits run when a Redis server is named, as PostgreSQL runs when TEST_DATABASE_URL is set.
const redisUrl = process.env.TEST_REDIS_URL ?? null;
const silent = createLogger({ level: 'silent' });
const MINUTE = 60_000;

let database: TestDatabase;
const prefixes: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
  if (redisUrl && prefixes.length > 0) {
    const redis = new Redis(redisUrl);
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
  }
});

type StoreKind = 'PostgreSQL' | 'Redis';
const kinds: StoreKind[] = ['PostgreSQL', ...(redisUrl ? (['Redis'] as const) : [])];

/** A key prefix of its own per suite: test files (and the two database projects) share one Redis. */
function newKeyPrefix(): string {
  const keyPrefix = `sc-test:${randomBytes(6).toString('hex')}:`;
  prefixes.push(keyPrefix);
  return keyPrefix;
}

/** A store as one server instance builds it; instances on the same database or key prefix share their events. */
function newStore(kind: StoreKind, keyPrefix: string): RateLimitStore {
  if (kind === 'PostgreSQL') {
    return createPostgresRateLimitStore(database.db, { retentionMs: ABUSE_LIMITS_RETENTION_MS });
  }
  return createRedisRateLimitStore({ url: redisUrl ?? '', keyPrefix, logger: silent });
}

/** What a limit answered: nothing (allowed) or the 429 it threw. */
async function outcome(attempt: Promise<void>): Promise<'allowed' | AppError> {
  try {
    await attempt;
    return 'allowed';
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

function refused(result: 'allowed' | AppError): AppError {
  if (result === 'allowed') throw new Error('expected a 429, the attempt was allowed');
  return result;
}

let cartCounter = 0;
const newCart = () => ({ organizationId: 1, cartId: ++cartCounter });

describe.each(kinds)('abuse limits kept in %s', (kind) => {
  const keyPrefix = newKeyPrefix();
  const stores: RateLimitStore[] = [];
  let store: RateLimitStore;
  let clock: ManualClock;
  let limits: AbuseLimits;

  beforeAll(() => {
    store = newStore(kind, keyPrefix);
    stores.push(store);
  });

  afterAll(async () => {
    for (const each of stores) await each.close();
  });

  // Each test starts at a later time than the last, so no test sees another's events.
  let start = Date.parse('2026-11-21T12:00:00Z');
  function freshLimits(): AbuseLimits {
    start += 24 * 60 * MINUTE;
    clock = new ManualClock(new Date(start));
    limits = createAbuseLimits({ store, clock, logger: silent });
    return limits;
  }

  it('refuses the 6th failed payment on a cart within 10 minutes, with 429, Retry-After and a message', async () => {
    freshLimits();
    const cart = { ...newCart(), ip: null };
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await outcome(limits.beforeOrderAttempt(cart))).toBe('allowed');
      await limits.recordFailedPayment(cart);
      clock.advance(MINUTE);
    }
    // 5 minutes after the first decline: it leaves the window 5 minutes from now.
    const error = refused(await outcome(limits.beforeOrderAttempt(cart)));
    expect(error.status).toBe(429);
    expect(error.code).toBe('too_many_failed_payments');
    expect(error.headers).toEqual({ 'retry-after': '300' });
    expect(error.message).toBe(
      'Too many payment attempts were declined. For your security, payment is paused; please try again in 5 minutes.',
    );

    // Another cart is not affected.
    expect(await outcome(limits.beforeOrderAttempt({ ...newCart(), ip: null }))).toBe('allowed');

    clock.advance(5 * MINUTE - 1000);
    expect(refused(await outcome(limits.beforeOrderAttempt(cart))).headers).toEqual({ 'retry-after': '1' });
    clock.advance(1000);
    expect(await outcome(limits.beforeOrderAttempt(cart))).toBe('allowed');
  });

  it('refuses an IP its 21st failed payment within an hour, across different carts', async () => {
    freshLimits();
    const ip = '81.2.69.160';
    for (let attempt = 1; attempt <= 20; attempt++) {
      const cart = { ...newCart(), ip };
      expect(await outcome(limits.beforeOrderAttempt(cart))).toBe('allowed');
      await limits.recordFailedPayment(cart);
      clock.advance(MINUTE);
    }
    const error = refused(await outcome(limits.beforeOrderAttempt({ ...newCart(), ip })));
    expect(error.code).toBe('too_many_failed_payments');
    expect(error.headers).toEqual({ 'retry-after': String(40 * 60) });
    expect(error.message).toContain('please try again in 40 minutes');

    // Other IPs, and carts without a known IP, still pay.
    expect(await outcome(limits.beforeOrderAttempt({ ...newCart(), ip: '81.2.69.161' }))).toBe('allowed');
    expect(await outcome(limits.beforeOrderAttempt({ ...newCart(), ip: null }))).toBe('allowed');

    clock.advance(40 * MINUTE);
    expect(await outcome(limits.beforeOrderAttempt({ ...newCart(), ip }))).toBe('allowed');
  });

  it('holds an attempt against the failed-payment limit until its outcome is known, so parallel attempts cannot all pass', async () => {
    freshLimits();
    const cart = { ...newCart(), ip: null };
    const results = await Promise.all(
      Array.from({ length: 25 }, () => outcome(limits.beforeOrderAttempt(cart))),
    );
    expect(results.filter((result) => result === 'allowed')).toHaveLength(5);
    for (const result of results) {
      if (result !== 'allowed') {
        expect(result.code).toBe('too_many_attempts');
        expect(result.headers).toEqual({ 'retry-after': '60' });
      }
    }
    // Those five all declined: the cart now has its five failures and stays closed for 10 minutes.
    for (let i = 0; i < 5; i++) await limits.recordFailedPayment(cart);
    clock.advance(ABUSE_LIMITS.pendingPaymentMs);
    expect(refused(await outcome(limits.beforeOrderAttempt(cart))).code).toBe('too_many_failed_payments');
  });

  it('never lets parallel failing attempts from one IP past 20 failures an hour', async () => {
    freshLimits();
    const ip = '81.2.69.170';
    const carts = Array.from({ length: 40 }, () => ({ ...newCart(), ip }));
    // Card testing in parallel: every attempt that is let through declines.
    const results = await Promise.all(
      carts.map(async (cart) => {
        const result = await outcome(limits.beforeOrderAttempt(cart));
        if (result === 'allowed') await limits.recordFailedPayment(cart);
        return result;
      }),
    );
    expect(results.filter((result) => result === 'allowed')).toHaveLength(20);
    clock.advance(ABUSE_LIMITS.pendingPaymentMs);
    const after = refused(await outcome(limits.beforeOrderAttempt({ ...newCart(), ip })));
    expect(after.code).toBe('too_many_failed_payments');
  });

  it('frees an attempt slot a minute after a payment that did not fail', async () => {
    freshLimits();
    const cart = { ...newCart(), ip: null };
    for (let i = 0; i < 5; i++) expect(await outcome(limits.beforeOrderAttempt(cart))).toBe('allowed');
    expect(refused(await outcome(limits.beforeOrderAttempt(cart))).code).toBe('too_many_attempts');
    clock.advance(ABUSE_LIMITS.pendingPaymentMs);
    expect(await outcome(limits.beforeOrderAttempt(cart))).toBe('allowed');
  });

  it('limits order attempts to 20 per cart per 10 minutes even when none fails', async () => {
    freshLimits();
    const cart = { ...newCart(), ip: null };
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect(await outcome(limits.beforeOrderAttempt(cart)), `attempt ${attempt}`).toBe('allowed');
      clock.advance(15_000);
    }
    const error = refused(await outcome(limits.beforeOrderAttempt(cart)));
    expect(error.code).toBe('too_many_attempts');
    expect(error.message).toBe(
      'Too many order attempts in a short time. Please wait 5 minutes and try again.',
    );
    expect(error.headers).toEqual({ 'retry-after': String(10 * 60 - 20 * 15) });
  });

  it('limits authorizations to 30 a minute per IP, and not when the IP is unknown', async () => {
    freshLimits();
    for (let i = 0; i < 30; i++) {
      expect(await outcome(limits.authorize({ ip: '81.2.69.180', organizationId: 1 }))).toBe('allowed');
    }
    const error = refused(await outcome(limits.authorize({ ip: '81.2.69.180', organizationId: 1 })));
    expect(error.status).toBe(429);
    expect(error.code).toBe('too_many_requests');
    expect(error.headers).toEqual({ 'retry-after': '60' });
    expect(error.message).toBe(
      'Too many checkout sessions were started from your network. Please try again in 1 minute.',
    );
    expect(await outcome(limits.authorize({ ip: '81.2.69.181', organizationId: 1 }))).toBe('allowed');
    for (let i = 0; i < 40; i++) {
      expect(await outcome(limits.authorize({ ip: null, organizationId: 1 }))).toBe('allowed');
    }
    clock.advance(MINUTE);
    expect(await outcome(limits.authorize({ ip: '81.2.69.180', organizationId: null }))).toBe('allowed');
  });

  it('never lets parallel authorizations past the limit', async () => {
    freshLimits();
    const results = await Promise.all(
      Array.from({ length: 70 }, () =>
        outcome(limits.authorize({ ip: '81.2.69.190', organizationId: null })),
      ),
    );
    expect(results.filter((result) => result === 'allowed')).toHaveLength(ABUSE_LIMITS.authorizePerIp.limit);
  });

  it('counts every address of an IPv6 /64 as one client, and the next /64 apart', async () => {
    freshLimits();
    const results = [];
    for (let i = 0; i < 40; i++) {
      const cart = { ...newCart(), ip: `2a02:6b8:b010:9020:${i.toString(16)}::${(i + 1).toString(16)}` };
      const result = await outcome(limits.beforeOrderAttempt(cart));
      if (result === 'allowed') await limits.recordFailedPayment(cart);
      results.push(result === 'allowed' ? 'allowed' : result.code);
    }
    expect(results.slice(0, 20)).toEqual(Array<string>(20).fill('allowed'));
    expect(results.slice(20)).toEqual(Array<string>(20).fill('too_many_failed_payments'));
    expect(await outcome(limits.beforeOrderAttempt({ ...newCart(), ip: '2a02:6b8:b010:9021::1' }))).toBe(
      'allowed',
    );
  });

  it('counts IPv6 by the configured prefix', async () => {
    freshLimits();
    const perAddress = createAbuseLimits({ store, clock, logger: silent, ipv6PrefixLength: 128 });
    for (let i = 0; i < 40; i++) {
      const cart = { ...newCart(), ip: `2a02:6b8:b010:9030::${(i + 1).toString(16)}` };
      expect(await outcome(perAddress.beforeOrderAttempt(cart))).toBe('allowed');
      await perAddress.recordFailedPayment(cart);
    }
    const perSite = createAbuseLimits({ store, clock, logger: silent, ipv6PrefixLength: 48 });
    for (let i = 0; i < 20; i++) {
      const cart = { ...newCart(), ip: `2a02:6b8:b010:${(0xa000 + i).toString(16)}::1` };
      expect(await outcome(perSite.beforeOrderAttempt(cart))).toBe('allowed');
      await perSite.recordFailedPayment(cart);
    }
    const refusedInSite = await outcome(
      perSite.beforeOrderAttempt({ ...newCart(), ip: '2a02:6b8:b010:ffff::1' }),
    );
    expect(refused(refusedInSite).code).toBe('too_many_failed_payments');
  });

  it('limits carts from checkout links to 30 per 10 minutes per address, parallel visits too', async () => {
    freshLimits();
    const visit = () => outcome(limits.newCartFromLink({ ip: '81.2.69.210', organizationId: 1 }));
    const results = await Promise.all(Array.from({ length: 200 }, visit));
    expect(results.filter((result) => result === 'allowed')).toHaveLength(ABUSE_LIMITS.linkCartsPerIp.limit);
    const error = refused(results.find((result) => result !== 'allowed') ?? 'allowed');
    expect(error.status).toBe(429);
    expect(error.code).toBe('too_many_carts');
    expect(error.headers).toEqual({ 'retry-after': '600' });
    expect(error.message).toBe(
      'This checkout link was opened too many times from your network. Please try again in 10 minutes.',
    );
    // Spelled as IPv4-mapped IPv6, it is the same address.
    expect(
      refused(await outcome(limits.newCartFromLink({ ip: '::ffff:81.2.69.210', organizationId: 1 }))).code,
    ).toBe('too_many_carts');
    expect(await outcome(limits.newCartFromLink({ ip: '81.2.69.211', organizationId: 1 }))).toBe('allowed');
    expect(await outcome(limits.newCartFromLink({ ip: null, organizationId: 1 }))).toBe('allowed');
    clock.advance(ABUSE_LIMITS.linkCartsPerIp.windowMs);
    expect(await visit()).toBe('allowed');
  });

  it('is shared by instances: two limiters on the same store count together', async () => {
    freshLimits();
    const second = newStore(kind, keyPrefix);
    stores.push(second);
    const other = createAbuseLimits({ store: second, clock, logger: silent });
    const cart = { ...newCart(), ip: null };
    for (let i = 0; i < 5; i++) {
      const limiter = i % 2 === 0 ? limits : other;
      expect(await outcome(limiter.beforeOrderAttempt(cart))).toBe('allowed');
      await limiter.recordFailedPayment(cart);
    }
    expect(refused(await outcome(other.beforeOrderAttempt(cart))).code).toBe('too_many_failed_payments');
    expect(refused(await outcome(limits.beforeOrderAttempt(cart))).code).toBe('too_many_failed_payments');
  });
});

describe('the PostgreSQL rate-limit store', () => {
  it('prunes events that can no longer count', async () => {
    const store = createPostgresRateLimitStore(database.db, {
      retentionMs: ABUSE_LIMITS_RETENTION_MS,
      pruneEveryMs: 10 * MINUTE,
    });
    const clock = new ManualClock('2030-01-01T00:00:00Z');
    const limits = createAbuseLimits({ store, clock, logger: silent });
    const bucketCount = async () =>
      (
        await database.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM rate_limit_events WHERE bucket LIKE 'authorize:ip:81.2.70.%'",
        )
      ).rows[0]?.n;
    for (let i = 0; i < 10; i++) await limits.authorize({ ip: `81.2.70.${i}`, organizationId: null });
    expect(await bucketCount()).toBe(10);
    clock.advance(ABUSE_LIMITS_RETENTION_MS + MINUTE);
    await limits.authorize({ ip: '81.2.71.1', organizationId: null });
    expect(await bucketCount()).toBe(0);
  });
});

describe("order attempts checked in the order's own transaction (PostgreSQL)", () => {
  function transactional() {
    const store = createPostgresRateLimitStore(database.db, { retentionMs: ABUSE_LIMITS_RETENTION_MS });
    const clock = new ManualClock('2031-01-01T00:00:00Z');
    const limits = createAbuseLimits({ store, clock, logger: silent });
    const inTransaction = limits.beforeOrderAttemptInTransaction;
    if (!inTransaction) throw new Error('the PostgreSQL store checks inside a transaction');
    return { limits, clock, inTransaction };
  }

  it('counts an attempt only when its transaction commits', async () => {
    const { limits, inTransaction } = transactional();
    // An attempt holds a failed-payment slot of its cart for a minute: 5 at once fill the cart's limit.
    const cart = { ...newCart(), ip: '81.2.72.1' };
    const limit = ABUSE_LIMITS.failedPaymentsPerCart.limit;
    // Attempts rolled back with their orders count for nothing.
    for (let i = 0; i < 2 * limit; i++) {
      await expect(
        database.db.transaction(async (tx) => {
          await inTransaction(tx, cart);
          throw new Error('the order was not saved');
        }),
      ).rejects.toThrow('the order was not saved');
    }
    for (let i = 0; i < limit; i++) {
      expect(await outcome(database.db.transaction((tx) => inTransaction(tx, cart)))).toBe('allowed');
    }
    // The committed ones count, here and through the ordinary check.
    const error = refused(await outcome(database.db.transaction((tx) => inTransaction(tx, cart))));
    expect(error.code).toBe('too_many_attempts');
    expect(refused(await outcome(limits.beforeOrderAttempt(cart))).code).toBe('too_many_attempts');
  });

  it('applies the same rules as the ordinary check, failed payments first', async () => {
    const { limits, inTransaction } = transactional();
    const cart = { ...newCart(), ip: null };
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await outcome(database.db.transaction((tx) => inTransaction(tx, cart)))).toBe('allowed');
      await limits.recordFailedPayment(cart);
    }
    const error = refused(await outcome(database.db.transaction((tx) => inTransaction(tx, cart))));
    expect(error.code).toBe('too_many_failed_payments');
    expect(error.headers).toEqual({ 'retry-after': '600' });
  });

  it('never lets parallel transactions past the limit', async () => {
    const { inTransaction } = transactional();
    const cart = { ...newCart(), ip: null };
    const results = await Promise.all(
      Array.from({ length: 30 }, () => outcome(database.db.transaction((tx) => inTransaction(tx, cart)))),
    );
    expect(results.filter((result) => result === 'allowed')).toHaveLength(
      ABUSE_LIMITS.failedPaymentsPerCart.limit,
    );
  });
});

describe('when the rate-limit store is down', () => {
  it('lets requests through and logs the failure', async () => {
    const logs: string[] = [];
    const logger = createLogger({
      level: 'info',
      stream: { write: (line: string) => void logs.push(line) },
    });
    // Nothing listens on port 1: every command fails.
    const store = createRedisRateLimitStore({
      url: 'redis://127.0.0.1:1',
      keyPrefix: 'sc-test-down:',
      logger,
    });
    const limits = createAbuseLimits({ store, clock: new ManualClock(), logger });
    try {
      for (let i = 0; i < 35; i++) {
        expect(await outcome(limits.authorize({ ip: '81.2.69.200', organizationId: null }))).toBe('allowed');
      }
      await limits.recordFailedPayment({ organizationId: 1, cartId: 1, ip: null });
    } finally {
      await store.close();
    }
    expect(logs.some((line) => line.includes('rate-limit store failed; request allowed'))).toBe(true);
    expect(logs.some((line) => line.includes('rate-limit store failed to record a failed payment'))).toBe(
      true,
    );
  });
});
