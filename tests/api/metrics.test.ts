import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/server/platform/observability/metrics.js';
import { createPaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import { DECLINING_TOKEN_PREFIX } from '../../src/server/platform/payments/test-gateway.js';
import { runRebills } from '../../src/server/modules/subscriptions/rebill-service.js';
import { card, CARDS, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
const METRICS_TOKEN = 'scrape-me-0123456789abcdef';

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

async function scrape(app = t.app, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
  return { status: response.statusCode, text: response.body, type: response.headers['content-type'] };
}

/** The value of one sample line, e.g. value(text, 'checkout_orders_completed_total'). */
function value(text: string, sample: string): number {
  const line = text.split('\n').find((entry) => entry.startsWith(`${sample} `));
  return line === undefined ? NaN : Number(line.slice(sample.length + 1));
}

describe('the request log', () => {
  it('writes one line per request: id, method, route pattern, status and duration, never the path or query', async () => {
    const before = t.logs.length;
    const response = await t.app.inject({
      method: 'GET',
      url: '/checkout/api/vrio/carts/secret-cart-token-456/preview?ship_zipcode=73301',
    });
    expect(response.statusCode).toBe(401);
    const lines = t.logs
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      reqId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'GET',
      route: '/checkout/api/vrio/carts/:cart_token/preview',
      status: 401,
      ms: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toMatch(/secret-cart-token-456|73301/);
  });
});

describe('GET /metrics', () => {
  it('shows request counts and latency by route pattern, never by raw URL, in Prometheus text', async () => {
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({ method: 'GET', url: '/checkout/api/vrio/carts/secret-cart-token-123' });
    const { status, text, type } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      value(text, 'checkout_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain(
      'checkout_http_request_duration_seconds_bucket{le="0.1",method="GET",route="/healthz",status="200"}',
    );
    expect(text).toContain('route="/checkout/api/vrio/carts/:cart_token",status="401"');
    expect(text).not.toContain('secret-cart-token-123');
    // Node's own: CPU, memory, event loop.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts each order and decline once, not again when an Idempotency-Key replays the answer', async () => {
    const store = await createStore(t.app, t.db);
    const shopper = await shopperSession(t.app, store.org.publicId);
    const before = (await scrape()).text;

    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    // A replay is the same request again: the same body (the same card token) with the same key.
    const body = orderBody(token);
    const placed = await shopper.post('orders', body, { 'idempotency-key': 'metrics-order-1' });
    expect(placed.status).toBe(200);
    expect(placed.body.order.status).toBe('complete');
    const replayed = await shopper.post('orders', body, { 'idempotency-key': 'metrics-order-1' });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual(placed.body);

    const declinedCart = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declinedBody = orderBody(declinedCart, { payment: card(CARDS.declined) });
    const declined = await shopper.post('orders', declinedBody, { 'idempotency-key': 'metrics-decline-1' });
    expect(declined.status).toBe(402);
    const again = await shopper.post('orders', declinedBody, { 'idempotency-key': 'metrics-decline-1' });
    expect(again.status).toBe(402);

    const after = (await scrape()).text;
    expect(value(after, 'checkout_orders_completed_total')).toBe(
      value(before, 'checkout_orders_completed_total') + 1,
    );
    expect(value(after, 'checkout_payment_declines_total')).toBe(
      value(before, 'checkout_payment_declines_total') + 1,
    );
    expect(
      value(
        after,
        'checkout_http_request_duration_seconds_count{method="POST",route="/checkout/api/vrio/orders",status="402"}',
      ),
    ).toBeGreaterThanOrEqual(2);
  });

  it('counts rebill outcomes the runner reports', async () => {
    const store = await createStore(t.app, t.db);
    const shopper = await shopperSession(t.app, store.org.publicId);
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const token = await store.cart([{ offer_id: store.offers.club.id }]);
      const placed = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
      expect(placed.status).toBe(200);
      const { rows } = await t.db.query<{ id: number }>(
        'SELECT s.id FROM subscriptions s JOIN orders o ON o.id = s.order_id JOIN carts c ON c.id = o.cart_id WHERE c.token = $1',
        [token],
      );
      ids.push(rows[0]?.id ?? NaN);
    }
    // The second one is declined from now on.
    await t.db.query(
      'UPDATE payment_methods SET gateway_token = $2 WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)',
      [ids[1], `${DECLINING_TOKEN_PREFIX}${ids[1]}`],
    );
    t.clock.advance(31 * 86_400_000);

    const metrics = createMetrics({ processMetrics: false });
    const gateways = createPaymentGateways(t.config, { db: t.db, clock: t.clock });
    const summary = await runRebills({ db: t.db, gateways, clock: t.clock, onOutcome: metrics.recordRebill });
    const text = await metrics.render();
    expect(value(text, 'checkout_rebills_total{outcome="approved"}')).toBe(summary.approved);
    expect(value(text, 'checkout_rebills_total{outcome="declined"}')).toBe(summary.declined);
    expect(value(text, 'checkout_rebills_total{outcome="error"}')).toBe(0);
    expect(summary.approved).toBeGreaterThanOrEqual(1);
    expect(summary.declined).toBeGreaterThanOrEqual(1);
  });

  it('answers only direct requests from private addresses when no METRICS_TOKEN is set', async () => {
    expect((await scrape(t.app, {}, '10.0.0.7')).status).toBe(200);
    const outside = await scrape(t.app, {}, '8.8.8.8');
    expect(outside.status).toBe(403);
    expect(JSON.parse(outside.text)).toMatchObject({ code: 'metrics_private_only' });
    expect(outside.text).toContain('METRICS_TOKEN');
    // Through a reverse proxy every visitor arrives from loopback: a relayed request is refused.
    const relayed = await scrape(t.app, { 'x-forwarded-for': '8.8.8.8' }, '127.0.0.1');
    expect(relayed.status).toBe(403);
  });

  it('asks everyone for the METRICS_TOKEN once it is set', async () => {
    const guarded = await createTestApp({ config: { metricsToken: METRICS_TOKEN } });
    try {
      const missing = await scrape(guarded.app);
      expect(missing.status).toBe(401);
      expect(JSON.parse(missing.text)).toMatchObject({ code: 'metrics_token_required' });
      expect((await scrape(guarded.app, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(
        401,
      );
      const ok = await scrape(guarded.app, { authorization: `Bearer ${METRICS_TOKEN}` }, '8.8.8.8');
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('checkout_orders_completed_total');
    } finally {
      await guarded.close();
    }
  });
});
