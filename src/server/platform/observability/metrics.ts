import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export type RebillOutcome = 'approved' | 'declined' | 'error';

/** The process's Prometheus metrics: HTTP requests by route, orders, declines, rebills, and Node's own. */
export interface Metrics {
  readonly contentType: string;
  render(): Promise<string>;
  /** Counts a finished request (app.ts calls it from an onResponse hook). */
  observe(request: FastifyRequest, reply: FastifyReply): void;
  /** For the rebill runner (src/server/modules/subscriptions/rebill-service.ts onOutcome). */
  recordRebill(outcome: { status: RebillOutcome; pastDue: boolean }): void;
  /** A Content-Security-Policy violation a browser reported, by its directive (a known name or "other"). */
  recordCspViolation(directive: string): void;
  /** Differences the page check found between the served page and the build's manifest. */
  recordPageChanges(count: number): void;
  /** How a job's attempt ended, by the job's kind (the job worker's onOutcome). */
  recordJob(kind: string, outcome: 'done' | 'retried' | 'failed'): void;
}

/** Orders this process actually ran (a replay of a stored answer is no new order or decline). */
const orderAttempts = new WeakMap<FastifyRequest, { completed: boolean }>();

/** Called by the order routes when a request runs the order rather than replaying an Idempotency-Key's answer. */
export function noteOrderAttempt(request: FastifyRequest): { completed(): void } {
  const attempt = { completed: false };
  orderAttempts.set(request, attempt);
  return {
    completed() {
      attempt.completed = true;
    },
  };
}

/**
 * One registry per app. Requests are labelled by route pattern (never the raw URL, so cart tokens do not become
 * label values), method and status.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'checkout_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, and how long they took',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const orders = new Counter({
    name: 'checkout_orders_completed_total',
    help: 'Orders placed and paid (POST or PUT orders answered with order.status complete)',
    registers: [registry],
  });
  const declines = new Counter({
    name: 'checkout_payment_declines_total',
    help: 'Order payments the gateway declined (POST or PUT orders answered 402)',
    registers: [registry],
  });
  const rebills = new Counter({
    name: 'checkout_rebills_total',
    help: 'Subscription renewals charged by this process, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const pastDue = new Counter({
    name: 'checkout_subscriptions_past_due_total',
    help: 'Subscriptions that became past due after their last declined retry',
    registers: [registry],
  });
  for (const outcome of ['approved', 'declined', 'error'] as const) rebills.inc({ outcome }, 0);
  const cspViolations = new Counter({
    name: 'checkout_csp_violations_total',
    help: 'Content-Security-Policy violations browsers reported from the checkout page, by directive',
    labelNames: ['directive'] as const,
    registers: [registry],
  });
  const pageChanges = new Counter({
    name: 'checkout_page_changes_total',
    help: "Differences the page check found between the served page (scripts, integrity, headers) and the build's manifest",
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'checkout_jobs_total',
    help: "Job attempts this process's worker ran, by kind and outcome (done, retried, failed)",
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    observe(request, reply) {
      const status = reply.statusCode;
      requests.observe(
        { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(status) },
        reply.elapsedTime / 1000,
      );
      const attempt = orderAttempts.get(request);
      if (attempt) {
        if (status === 200 && attempt.completed) orders.inc();
        else if (status === 402) declines.inc();
      }
    },
    recordRebill({ status, pastDue: becamePastDue }) {
      rebills.inc({ outcome: status });
      if (becamePastDue) pastDue.inc();
    },
    recordCspViolation(directive) {
      cspViolations.inc({ directive });
    },
    recordPageChanges(count) {
      pageChanges.inc(count);
    },
    recordJob(kind, outcome) {
      jobs.inc({ kind, outcome });
    },
  };
}
