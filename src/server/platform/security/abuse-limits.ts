import { describeWaitMs } from '../../../domain/wait-time.js';
import type { Logger } from 'pino';
import { abuseLimitSubject } from '../../../domain/client-ip.js';
import type { Queryable } from '../db/database.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import type { Bucket, BrokenRule, RateLimitStore, RateRule } from './rate-limit-store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The limits (docs/security.md lists them). Failed payments are the card-testing signal: few per cart, more per IP
 * (shoppers share addresses behind NAT). The general rates only stop floods; a real shopper never meets them.
 */
export const ABUSE_LIMITS = {
  authorizePerIp: { limit: 30, windowMs: MINUTE },
  failedPaymentsPerCart: { limit: 5, windowMs: 10 * MINUTE },
  failedPaymentsPerIp: { limit: 20, windowMs: HOUR },
  orderAttemptsPerCart: { limit: 20, windowMs: 10 * MINUTE },
  orderAttemptsPerIp: { limit: 120, windowMs: HOUR },
  /**
   * Carts made from checkout links: each visit of a link makes one, and a shopper makes a handful. Enough for a shared
   * address (an office, a carrier's NAT) and still far from a flood.
   */
  linkCartsPerIp: { limit: 30, windowMs: 10 * MINUTE },
  /**
   * Content-Security-Policy violation reports (no token: browsers send them on their own). A page that breaks its
   * policy reports a few per view; more only fill the log. Clients with no known address share one bucket of ten
   * times as many, so a flood from behind an unlisted proxy cannot fill it either.
   */
  cspReportsPerIp: { limit: 60, windowMs: MINUTE },
  /**
   * The subscriber's self-service API (docs/subscriptions.md): a person reads and changes one subscription a few times;
   * a bad or expired link counts too, so tokens cannot be tried without end.
   */
  subscriberRequestsPerIp: { limit: 120, windowMs: MINUTE },
  /** Pauses, resumes, skips and cancels of one subscription: a handful a day, more is a script. */
  subscriberChangesPerSubscription: { limit: 30, windowMs: HOUR },
  /** New cards for one subscription: a stolen link must not become a card-testing tool. */
  subscriberCardsPerSubscription: { limit: 5, windowMs: HOUR },
  /**
   * An order attempt holds a slot of the failed-payment limits until its outcome is known (a failure takes the slot
   * over; a success lets it lapse after this long), so parallel attempts cannot all pass a check made before any of
   * them failed. Longer than any gateway call.
   */
  pendingPaymentMs: MINUTE,
} as const;

/** The longest window: events older than this never count again and may be pruned. */
export const ABUSE_LIMITS_RETENTION_MS = HOUR;

export interface AbuseLimits {
  /** Per-IP limit on POST /checkout/api/authorize. Throws a 429 AppError when it is reached. */
  authorize(input: { ip: string | null; organizationId: number | null }): Promise<void>;
  /**
   * Call right before charging (after the order is validated). Throws a 429 AppError (`too_many_failed_payments`
   * or `too_many_attempts`, with Retry-After) when the cart or the IP may not try to pay now.
   */
  beforeOrderAttempt(input: { organizationId: number; cartId: number; ip: string | null }): Promise<void>;
  /**
   * beforeOrderAttempt inside the caller's transaction, which must be on the store's database (only when the store is
   * PostgreSQL, else absent): the attempt is counted only if that transaction commits. A failing store fails that
   * transaction instead of letting the attempt through.
   */
  beforeOrderAttemptInTransaction?(
    tx: Queryable,
    input: { organizationId: number; cartId: number; ip: string | null },
  ): Promise<void>;
  /**
   * Call before a checkout link (`__c__…`) makes a new cart. Throws a 429 AppError (`too_many_carts`, with
   * Retry-After) when the client IP opened links too often.
   */
  newCartFromLink(input: { ip: string | null; organizationId: number }): Promise<void>;
  /** Per-IP limit on POST /checkout/api/csp-reports. Throws a 429 AppError (`too_many_reports`) when it is reached. */
  cspReport(input: { ip: string | null }): Promise<void>;
  /**
   * Before every request of the subscriber API. `change` names what the request changes of `subscription` (none for
   * a read or a refused token). Throws a 429 AppError (`too_many_requests`, with Retry-After) when a limit is reached.
   */
  subscriberRequest(input: {
    ip: string | null;
    subscription: { organizationId: number; subscriptionId: number } | null;
    change: 'none' | 'status' | 'card';
  }): Promise<void>;
  /** Call when the gateway declined or failed the payment of an attempt that passed beforeOrderAttempt. */
  recordFailedPayment(input: { organizationId: number; cartId: number; ip: string | null }): Promise<void>;
}

const bucket = (name: string, windowMs: number): Bucket => ({ name, windowMs });

/** The prefix of IPv6 networks counted as one client by default (docs/security.md, "Abuse limits"). */
export const DEFAULT_IPV6_PREFIX_LENGTH = 64;

function orderBuckets(input: { organizationId: number; cartId: number; ip: string | null }) {
  const cart = `${input.organizationId}:${input.cartId}`;
  const L = ABUSE_LIMITS;
  return {
    failedCart: bucket(`failed-payment:cart:${cart}`, L.failedPaymentsPerCart.windowMs),
    pendingCart: bucket(`pending-payment:cart:${cart}`, L.pendingPaymentMs),
    attemptsCart: bucket(`order-attempt:cart:${cart}`, L.orderAttemptsPerCart.windowMs),
    ip:
      input.ip === null
        ? null
        : {
            failed: bucket(`failed-payment:ip:${input.ip}`, L.failedPaymentsPerIp.windowMs),
            pending: bucket(`pending-payment:ip:${input.ip}`, L.pendingPaymentMs),
            attempts: bucket(`order-attempt:ip:${input.ip}`, L.orderAttemptsPerIp.windowMs),
          },
  };
}

function tooMany(code: string, message: (wait: string) => string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(429, code, message(describeWaitMs(retryAfterMs)), {
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * Sliding-window abuse limits over a shared store, so they hold across server instances. A request whose client IP
 * is unknown (no public address; see TRUSTED_PROXIES) meets the per-cart limits only. When the store itself fails
 * the request goes through and the failure is logged: a limiter outage must not stop every checkout.
 */
export function createAbuseLimits(options: {
  store: RateLimitStore;
  clock: Clock;
  logger: Logger;
  /** IPv6 addresses are counted by their network of this many bits (64 unless said otherwise). */
  ipv6PrefixLength?: number;
}): AbuseLimits {
  const { store, clock, logger } = options;
  const ipv6PrefixLength = options.ipv6PrefixLength ?? DEFAULT_IPV6_PREFIX_LENGTH;
  /** Who a per-IP rule counts: the address, or its IPv6 network. */
  const subjectOf = (ip: string | null): string | null =>
    ip === null ? null : abuseLimitSubject(ip, ipv6PrefixLength);
  const withSubject = <T extends { ip: string | null }>(input: T): T => ({
    ...input,
    ip: subjectOf(input.ip),
  });

  async function consume(
    rules: RateRule[],
    add: Bucket[],
    organizationId: number | null,
  ): Promise<BrokenRule[]> {
    try {
      const result = await store.consume({ rules, add, now: clock.now(), organizationId });
      return result.ok ? [] : result.broken;
    } catch (error) {
      logger.error({ err: error }, 'rate-limit store failed; request allowed');
      return [];
    }
  }

  /** The order-attempt rules, checked and recorded by `consumeWith`; throws the 429 when one is broken. */
  async function orderAttempt(
    input: { organizationId: number; cartId: number; ip: string | null },
    consumeWith: (rules: RateRule[], add: Bucket[]) => Promise<BrokenRule[]>,
  ): Promise<void> {
    const b = orderBuckets(input);
    const L = ABUSE_LIMITS;
    // Rule order matters below: failed-payment rules first, then the general rates.
    const rules: RateRule[] = [
      { buckets: [b.failedCart, b.pendingCart], limit: L.failedPaymentsPerCart.limit },
      ...(b.ip ? [{ buckets: [b.ip.failed, b.ip.pending], limit: L.failedPaymentsPerIp.limit }] : []),
      { buckets: [b.attemptsCart], limit: L.orderAttemptsPerCart.limit },
      ...(b.ip ? [{ buckets: [b.ip.attempts], limit: L.orderAttemptsPerIp.limit }] : []),
    ];
    const add = [b.pendingCart, b.attemptsCart, ...(b.ip ? [b.ip.pending, b.ip.attempts] : [])];
    const broken = await consumeWith(rules, add);
    if (broken.length === 0) return;

    const retryAfterMs = Math.max(...broken.map((rule) => rule.retryAfterMs));
    // Declines alone fill a failed-payment rule: card testing, or a shopper who should try another way.
    const declined = broken.some((rule) => {
      const buckets = rules[rule.rule]?.buckets ?? [];
      const limit = rules[rule.rule]?.limit ?? Infinity;
      return buckets[0]?.name.startsWith('failed-payment:') === true && (rule.counts[0] ?? 0) >= limit;
    });
    if (declined) {
      throw tooMany(
        'too_many_failed_payments',
        (wait) =>
          `Too many payment attempts were declined. For your security, payment is paused; please try again in ${wait}.`,
        retryAfterMs,
      );
    }
    throw tooMany(
      'too_many_attempts',
      (wait) => `Too many order attempts in a short time. Please wait ${wait} and try again.`,
      retryAfterMs,
    );
  }

  const consumeInTransaction = store.consumeInTransaction?.bind(store);

  return {
    async authorize(input) {
      const { organizationId } = input;
      const ip = subjectOf(input.ip);
      if (ip === null) return;
      const perIp = bucket(`authorize:ip:${ip}`, ABUSE_LIMITS.authorizePerIp.windowMs);
      const broken = await consume(
        [{ buckets: [perIp], limit: ABUSE_LIMITS.authorizePerIp.limit }],
        [perIp],
        organizationId,
      );
      const first = broken[0];
      if (first) {
        throw tooMany(
          'too_many_requests',
          (wait) => `Too many checkout sessions were started from your network. Please try again in ${wait}.`,
          first.retryAfterMs,
        );
      }
    },

    beforeOrderAttempt: (input) =>
      orderAttempt(withSubject(input), (rules, add) => consume(rules, add, input.organizationId)),

    ...(consumeInTransaction
      ? {
          beforeOrderAttemptInTransaction: (
            tx: Queryable,
            input: Parameters<AbuseLimits['beforeOrderAttempt']>[0],
          ) =>
            orderAttempt(withSubject(input), async (rules, add) => {
              const result = await consumeInTransaction(tx, {
                rules,
                add,
                now: clock.now(),
                organizationId: input.organizationId,
              });
              return result.ok ? [] : result.broken;
            }),
        }
      : {}),

    async newCartFromLink(input) {
      const ip = subjectOf(input.ip);
      if (ip === null) return;
      const perIp = bucket(`link-cart:ip:${ip}`, ABUSE_LIMITS.linkCartsPerIp.windowMs);
      const broken = await consume(
        [{ buckets: [perIp], limit: ABUSE_LIMITS.linkCartsPerIp.limit }],
        [perIp],
        input.organizationId,
      );
      const first = broken[0];
      if (first) {
        throw tooMany(
          'too_many_carts',
          (wait) =>
            `This checkout link was opened too many times from your network. Please try again in ${wait}.`,
          first.retryAfterMs,
        );
      }
    },

    async cspReport(input) {
      const ip = subjectOf(input.ip);
      const perIp = bucket(`csp-report:ip:${ip ?? 'unknown'}`, ABUSE_LIMITS.cspReportsPerIp.windowMs);
      const limit = ABUSE_LIMITS.cspReportsPerIp.limit * (ip === null ? 10 : 1);
      const first = (await consume([{ buckets: [perIp], limit }], [perIp], null))[0];
      if (first) {
        throw tooMany(
          'too_many_reports',
          (wait) => `Too many reports from your network. Please try again in ${wait}.`,
          first.retryAfterMs,
        );
      }
    },

    async subscriberRequest(input) {
      const ip = subjectOf(input.ip);
      const L = ABUSE_LIMITS;
      const rules: RateRule[] = [];
      if (ip !== null) {
        const perIp = bucket(`subscriber:ip:${ip}`, L.subscriberRequestsPerIp.windowMs);
        rules.push({ buckets: [perIp], limit: L.subscriberRequestsPerIp.limit });
      }
      const { subscription } = input;
      if (subscription && input.change !== 'none') {
        const key = `${subscription.organizationId}:${subscription.subscriptionId}`;
        const rule =
          input.change === 'card' ? L.subscriberCardsPerSubscription : L.subscriberChangesPerSubscription;
        rules.push({
          buckets: [bucket(`subscriber-${input.change}:${key}`, rule.windowMs)],
          limit: rule.limit,
        });
      }
      if (rules.length === 0) return;
      const broken = await consume(
        rules,
        rules.map((rule) => rule.buckets[0] as Bucket),
        subscription?.organizationId ?? null,
      );
      if (broken.length === 0) return;
      throw tooMany(
        'too_many_requests',
        (wait) => `Too many requests for this subscription. Please try again in ${wait}.`,
        Math.max(...broken.map((rule) => rule.retryAfterMs)),
      );
    },

    async recordFailedPayment(input) {
      const b = orderBuckets(withSubject(input));
      try {
        await store.record({
          add: [b.failedCart, ...(b.ip ? [b.ip.failed] : [])],
          release: [b.pendingCart, ...(b.ip ? [b.ip.pending] : [])],
          now: clock.now(),
          organizationId: input.organizationId,
        });
      } catch (error) {
        logger.error({ err: error }, 'rate-limit store failed to record a failed payment');
      }
    },
  };
}
