import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CARDS, orderBody } from '../helpers/order-body.js';
import {
  http,
  shopperHeaders,
  startServer,
  stopServer,
  withCardTokenOver,
  type ServerProcess,
} from '../helpers/server-process.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/test-database.js';

const run = promisify(execFile);
const projectRoot = path.resolve(import.meta.dirname, '../..');
const MERCHANT_KEY = `sk_scale_${randomBytes(12).toString('hex')}`;
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn' });

/** `npm run start:cluster` (from source, so the test needs no build) and what it printed. */
interface Cluster {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startCluster(env: Record<string, string>, instances: number): Cluster {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/start-cluster.ts', '--instances', String(instances), '--from-source'],
    { cwd: projectRoot, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Waits until every instance printed where it listens (its start-up lines end with the API reference's): instance
 * number -> base URL, its test processor's URL (where its page's card fields make tokens) and pid.
 */
async function instancesOf(cluster: Cluster, count: number, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = cluster.output();
    const urls = new Map<number, string>();
    const processors = new Map<number, string>();
    const ready = new Set<number>();
    for (const match of text.matchAll(/\[instance (\d+)\] Secure Checkout is running at (http:\/\/\S+)/g)) {
      urls.set(Number(match[1]), match[2] ?? '');
    }
    for (const match of text.matchAll(/\[instance (\d+)\] Test card processor: (http:\/\/\S+)/g)) {
      processors.set(Number(match[1]), match[2] ?? '');
    }
    for (const match of text.matchAll(/\[instance (\d+)\] API reference: /g)) ready.add(Number(match[1]));
    if (urls.size >= count && [...urls.keys()].every((index) => ready.has(index))) {
      const pids = new Map<number, number>();
      for (const match of text.matchAll(/instance (\d+) started \(pid (\d+)/g)) {
        pids.set(Number(match[1]), Number(match[2]));
      }
      return [...urls.keys()].sort().map((index) => ({
        index,
        url: urls.get(index) ?? '',
        processorUrl: processors.get(index) ?? null,
        pid: pids.get(index) ?? NaN,
      }));
    }
    if (Date.now() > deadline) throw new Error(`the cluster did not start:\n${text}`);
    await sleep(100);
  }
}

if (testDatabaseKind() === 'postgres') {
  describe('two instances on one PostgreSQL (npm run start:cluster)', () => {
    let database: TestDatabase;
    let cluster: Cluster;
    type Instance = Awaited<ReturnType<typeof instancesOf>>[number];
    let a: Instance;
    let b: Instance;
    let beansId: number;
    let clubId: number;
    const merchant = { authorization: `Bearer ${MERCHANT_KEY}` };

    const newCart = async (baseUrl: string, offerId: number) => {
      const created = await http(baseUrl, 'POST', '/checkout/api/merchant/carts', {
        headers: merchant,
        body: { offers: [{ offer_id: offerId, quantity: 1 }] },
      });
      expect(created.status).toBe(201);
      return created.body.cart_token as string;
    };

    beforeAll(async () => {
      // Not migrated: both instances migrate and seed at once, and the advisory locks let one do it.
      database = await createTestDatabase({ migrated: false });
      cluster = startCluster(
        {
          DATABASE_URL: database.url ?? '',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sc-scale-')),
          MERCHANT_API_KEY: MERCHANT_KEY,
          TOKEN_SECRET: randomBytes(32).toString('hex'),
          PAYMENT_LEASE_SECONDS: '5',
          // This test's one address makes the cards of many shoppers at the instances' test processors.
          TEST_PROCESSOR_TOKENS_PER_IP: '200',
        },
        2,
      );
      const [first, second] = await instancesOf(cluster, 2);
      if (!first || !second) throw new Error('two instances expected');
      a = first;
      b = second;
      expect(a.url).not.toBe(b.url);
      const offers = (await http(a.url, 'GET', '/checkout/api/merchant/offers', { headers: merchant })).body
        .data;
      beansId = offers.find((offer: { item_id: string }) => offer.item_id === 'BEANS-ETH-340').id;
      clubId = offers.find((offer: { item_id: string }) => offer.item_id === 'CLUB-2').id;
    }, 120_000);

    afterAll(async () => {
      if (cluster && cluster.child.exitCode === null) {
        cluster.child.kill('SIGTERM');
        await Promise.race([cluster.exited, sleep(15_000)]);
      }
      await database?.drop();
    }, 30_000);

    it('accepts on one instance the tokens the other issued, and shows each the same cart', async () => {
      const token = await newCart(a.url, beansId);
      const headers = await shopperHeaders(a.url);
      const onB = await http(b.url, 'GET', `/checkout/api/vrio/carts/${token}`, { headers });
      expect(onB.status).toBe(200);
      const line = onB.body.offers[0];
      expect(line.order_offer_quantity).toBe(1);

      // Edited through A, read through B at once.
      const changed = await http(a.url, 'PUT', `/checkout/api/vrio/carts/${token}/quantity`, {
        headers,
        body: { id: line.order_offer_id, quantity: 3 },
      });
      expect(changed.status).toBe(200);
      const reread = await http(b.url, 'GET', `/checkout/api/vrio/carts/${token}`, { headers });
      expect(reread.body.offers[0].order_offer_quantity).toBe(3);
      expect(reread.body.total).toBe(changed.body.total);
    });

    it('shares the failed-payment limit: five declines split over both, the sixth attempt refused', async () => {
      const token = await newCart(a.url, beansId);
      const headers = await shopperHeaders(b.url);
      // Each press of Pay is a new attempt: the card fields of the instance's page make a new token (a declined one is
      // used up).
      const declinedOn = (instance: Instance) =>
        withCardTokenOver(instance.processorUrl, orderBody(token, { payment: card(CARDS.declined) }));
      const first = await http(a.url, 'POST', '/checkout/api/vrio/orders', {
        headers: { ...headers, 'idempotency-key': `decline-${token}-1` },
        body: await declinedOn(a),
      });
      expect(first.status).toBe(402);
      const orderId = (await http(b.url, 'GET', `/checkout/api/vrio/carts/${token}`, { headers })).body.order
        .order_id;
      for (let attempt = 2; attempt <= 5; attempt++) {
        const instance = attempt % 2 === 0 ? b : a;
        const retry = await http(instance.url, 'PUT', `/checkout/api/vrio/orders/${orderId}`, {
          headers: { ...headers, 'idempotency-key': `decline-${token}-${attempt}` },
          body: await declinedOn(instance),
        });
        expect(retry.status).toBe(402);
      }
      // Even a good card is refused now, on either instance.
      for (const instance of [b, a]) {
        const refused = await http(instance.url, 'PUT', `/checkout/api/vrio/orders/${orderId}`, {
          headers: { ...headers, 'idempotency-key': `decline-${token}-6-${instance.index}` },
          body: await withCardTokenOver(instance.processorUrl, orderBody(token)),
        });
        expect(refused.status).toBe(429);
        expect(refused.body.code).toBe('too_many_failed_payments');
      }
    });

    it('charges each due subscription once when two rebill runners run at the same time', async () => {
      const SUBSCRIPTIONS = 6;
      const headers = await shopperHeaders(a.url);
      const tokens: string[] = [];
      for (let i = 0; i < SUBSCRIPTIONS; i++) {
        const token = await newCart(a.url, clubId);
        const instance = i % 2 === 0 ? a : b;
        const placed = await http(instance.url, 'POST', '/checkout/api/vrio/orders', {
          headers: { ...headers, 'idempotency-key': `club-${token}` },
          body: await withCardTokenOver(
            instance.processorUrl,
            orderBody(token, { subscription_terms_accepted: true }),
          ),
        });
        expect(placed.status).toBe(200);
        tokens.push(token);
      }
      await database.db.query(
        `UPDATE subscriptions SET next_charge_at = now() - interval '1 day'
          WHERE order_id IN (SELECT o.id FROM orders o JOIN carts c ON c.id = o.cart_id WHERE c.token = ANY($1))`,
        [tokens],
      );

      const runner = () =>
        run(process.execPath, ['--import', 'tsx', 'scripts/rebill.ts'], {
          cwd: projectRoot,
          env: { ...baseEnv(), DATABASE_URL: database.url ?? '' },
          timeout: 60_000,
        });
      const outputs = await Promise.all([runner(), runner()]);
      const charged = outputs.map(({ stdout }) => Number(/rebill: (\d+) charged/.exec(stdout)?.[1] ?? NaN));
      expect(charged[0]! + charged[1]!).toBe(SUBSCRIPTIONS);

      const { rows } = await database.db.query<{ token: string; cycle: number; charges: number }>(
        `SELECT c.token, s.cycle, (SELECT count(*) FROM subscription_charges sc WHERE sc.subscription_id = s.id)::bigint AS charges
           FROM subscriptions s JOIN orders o ON o.id = s.order_id JOIN carts c ON c.id = o.cart_id
          WHERE c.token = ANY($1)`,
        [tokens],
      );
      expect(rows).toHaveLength(SUBSCRIPTIONS);
      expect(rows.every((row) => row.cycle === 2 && row.charges === 1)).toBe(true);
      const gateway = await database.db.query<{ n: number }>(
        "SELECT count(*)::bigint AS n FROM test_gateway_charges WHERE idempotency_key LIKE 'sub\\_%' AND status = 'approved'",
      );
      expect(gateway.rows[0]?.n).toBe(SUBSCRIPTIONS);
    }, 90_000);

    it('loses no order when one instance is killed mid-load and clients retry on the other', async () => {
      // Enough in flight that some are surely mid-way when A dies, however slowly this test process gets the CPU.
      const ORDERS = 40;
      const carts: string[] = [];
      for (let i = 0; i < ORDERS; i++) carts.push(await newCart(b.url, beansId));
      const headers = await shopperHeaders(a.url);
      // Each shopper's card made its token at A's test processor (A served their page) before the burst; a retry on B
      // sends the same body with the same key.
      const bodies = new Map(
        await Promise.all(
          carts.map(
            async (token) => [token, await withCardTokenOver(a.processorUrl, orderBody(token))] as const,
          ),
        ),
      );
      const send = (baseUrl: string, token: string) =>
        http(baseUrl, 'POST', '/checkout/api/vrio/orders', {
          headers: { ...headers, 'idempotency-key': `burst-${token}` },
          body: bodies.get(token),
        });

      // The burst goes to A, which is killed as soon as it has answered one.
      const first = carts.map((token) =>
        send(a.url, token).then(
          (response) => response.status,
          () => 'dropped' as const,
        ),
      );
      let answered = 0;
      for (const promise of first) void promise.then(() => answered++);
      while (answered < 1) await sleep(1);
      process.kill(a.pid, 'SIGKILL');
      const outcomes = await Promise.all(first);
      expect(outcomes).toContain('dropped');

      // Every client without a final answer retries on B with its key until it gets one.
      const finals: string[] = [];
      for (const [i, token] of carts.entries()) {
        if (outcomes[i] === 200) {
          finals.push('complete');
          continue;
        }
        const deadline = Date.now() + 30_000;
        for (;;) {
          const response = await send(b.url, token);
          // Held by the killed instance until its lease lapses (PAYMENT_LEASE_SECONDS=5).
          if (
            (response.status === 409 && response.body.code !== 'order_complete') ||
            response.status >= 500
          ) {
            if (Date.now() > deadline)
              throw new Error(`no answer for ${token}: ${JSON.stringify(response.body)}`);
            await sleep(250);
            continue;
          }
          // A completed order whose answer died with A: the retry says so and charges nothing again.
          finals.push(
            response.status === 409
              ? response.body.code
              : (response.body.order?.status ?? JSON.stringify(response.body)),
          );
          break;
        }
      }
      expect(finals.filter((outcome) => outcome !== 'complete' && outcome !== 'order_complete')).toEqual([]);
      expect(finals).toHaveLength(ORDERS);

      const { rows } = await database.db.query<{ status: string; approved: number; charges: number }>(
        `SELECT o.status,
                (SELECT count(*) FROM payment_attempts p WHERE p.order_id = o.id AND p.status = 'approved')::bigint AS approved,
                (SELECT count(*) FROM test_gateway_charges g
                  WHERE g.idempotency_key LIKE 'order\\_' || o.organization_id || '\\_' || o.id || '\\_%'
                    AND g.kind = 'charge' AND g.status = 'approved')::bigint AS charges
           FROM orders o JOIN carts c ON c.id = o.cart_id WHERE c.token = ANY($1)`,
        [carts],
      );
      expect(rows).toHaveLength(ORDERS);
      expect(
        rows.filter((row) => row.status === 'complete' && row.approved === 1 && row.charges === 1),
      ).toHaveLength(ORDERS);
      // The supervisor starts the killed instance again.
      const deadline = Date.now() + 30_000;
      while (
        !/instance 1 exited \(SIGKILL\); starting it again/.test(cluster.output()) &&
        Date.now() < deadline
      ) {
        await sleep(100);
      }
      expect(cluster.output()).toMatch(/instance 1 exited \(SIGKILL\); starting it again/);
    }, 90_000);
  });
} else {
  describe('the embedded database is one process’s', () => {
    let first: ServerProcess | null = null;

    afterAll(async () => {
      if (first) await stopServer(first);
    });

    it('refuses a second instance on the same data folder, naming the one that holds it', async () => {
      const env = {
        ...baseEnv(),
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sc-scale-')),
        MERCHANT_API_KEY: MERCHANT_KEY,
      };
      first = await startServer(env);
      const refused = await startServer(env).then(
        async (second) => {
          await stopServer(second);
          return 'started';
        },
        (error: Error) => error.message,
      );
      expect(refused).toMatch(/exited \(1\) before it started/);
      expect(refused).toContain(
        `Another Secure Checkout process (pid ${first.child.pid}) is using the embedded database`,
      );
      expect(refused).toContain('use PostgreSQL (DATABASE_URL) to run several');
      // The first one is unharmed.
      expect((await http(first.baseUrl, 'GET', '/readyz')).body).toEqual({
        status: 'ready',
        database: 'pglite',
      });
    }, 120_000);

    it('npm run start:cluster refuses to start without PostgreSQL', async () => {
      const cluster = startCluster({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sc-scale-')) }, 2);
      expect(await cluster.exited).toBe(1);
      expect(cluster.output()).toContain('npm run start:cluster needs PostgreSQL: set DATABASE_URL.');
      expect(cluster.output()).not.toContain('instance 1 started');
    }, 60_000);
  });
}
