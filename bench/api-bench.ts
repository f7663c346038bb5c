import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../src/server/platform/db/postgres.js';
import {
  countCpu,
  memoryOf,
  sampleRss,
  startBenchProcess,
  type BenchProcess,
  type CaseCpu,
} from './bench-process.js';
import { runFlows, runFlowsAtRate, saturate, type FlowResult, type LoadResult } from './load.js';
import { cartPath, makeCardTokens, previewPath, SHOPPER_FLOW } from './shopper-flow.js';

export type DatabaseKind = 'postgres' | 'pglite';

export interface ApiBenchOptions {
  /** seconds per saturation case, and the length of a fixed-rate run at its target */
  seconds: number;
  /** connections of the saturation cases */
  connections: number;
  /** fixed rates of the shopper flow, in orders per second */
  rates: number[];
  /** seconds of each fixed rate run first and not counted (the first seconds at a new rate, see flowRateWarmUps) */
  warmUpSeconds: number;
  /** the most orders the saturation run of the flow places */
  saturationOrders: number;
  /** PostgreSQL server on which a fresh database is made (and dropped) */
  postgresUrl: string;
  log: (line: string) => void;
}

export interface MeasuredCase<T> {
  result: T;
  /** highest RSS of the measured process during the case, bytes */
  peakRss: number | null;
  /** 1-minute load average when the case ended */
  load: number;
  /**
   * The share of the machine's CPU time the host took for others during the case (steal; null where not known): on a
   * shared virtual machine, the reason the same build measures twice as slow in one hour as in another.
   */
  stolen: number | null;
  /** CPU time used during the case (ms): by the server, PostgreSQL, the load generator and the machine in all */
  cpu: CaseCpu;
}

export interface ApiBenchResult {
  database: DatabaseKind;
  server: string;
  bare: MeasuredCase<LoadResult>;
  /** repeated reads of 100 carts, each read from the database */
  cartRead: MeasuredCase<LoadResult>;
  preview: MeasuredCase<LoadResult>;
  flowSaturation: MeasuredCase<FlowResult>;
  flowRates: MeasuredCase<FlowResult>[];
  /**
   * The warm-up before each fixed rate (same order as flowRates), not counted in it: the first seconds a server is
   * asked for a rate it has not yet run at queue (a transient of one to four seconds here at 150 orders/s).
   */
  flowRateWarmUps: FlowResult[];
  /** orders the server counted as completed (its /metrics), against the flows the load generator saw complete */
  ordersCounted: { byServer: number | null; byLoadGenerator: number };
  /** the server process's lifetime peak RSS (VmHWM) at the end */
  lifetimePeakRss: number | null;
  /** what this machine can place, from the CPU the flow took at saturation; null where the CPU was not read */
  hostBudget: HostBudget | null;
}

/** The order goal (docs/operations.md#capacity): its rate and p99, and how busy the cores may be at that rate. */
export const ORDER_GOAL = { ordersPerSecond: 200, p99Ms: 100, busyShare: 0.7 };

/**
 * The order goal as a matter of this machine's CPU: all the processes of the flow (server, database, load generator)
 * share its cores, so it places at most cores / (CPU per order) orders a second, fully busy, and holds the goal's rate
 * with a short queue only at about ORDER_GOAL.busyShare of that.
 */
export interface HostBudget {
  cores: number;
  /** the machine's busy CPU time per order placed in the saturation run (all processes) */
  cpuPerOrderMs: number;
  /** cores / cpuPerOrderMs: orders a second with every core busy */
  ordersPerSecondAtFullUse: number;
  /** the CPU per order at which ORDER_GOAL's rate keeps the cores ORDER_GOAL.busyShare busy */
  neededCpuPerOrderMs: number;
  /**
   * cpuPerOrderMs in requests to the bare Fastify route of the same run (the machine's CPU per bare request, load
   * generator included), or null: it moves less with the machine's speed than cpuPerOrderMs (168-251 where that moved
   * 13-23 ms, bench/results/2026-history.md), so several runs of it can compare builds measured in different hours
   */
  cpuPerOrderInBareRequests: number | null;
}

export function hostBudget(
  cores: number,
  saturation: MeasuredCase<FlowResult>,
  bare: MeasuredCase<LoadResult>,
): HostBudget | null {
  const { machine } = saturation.cpu;
  if (machine === null || saturation.result.completed === 0 || cores < 1) return null;
  const cpuPerOrderMs = machine / saturation.result.completed;
  const bareCpuPerRequestMs =
    bare.cpu.machine === null || bare.result.requests === 0 ? null : bare.cpu.machine / bare.result.requests;
  return {
    cores,
    cpuPerOrderMs,
    ordersPerSecondAtFullUse: (cores * 1000) / cpuPerOrderMs,
    neededCpuPerOrderMs: (cores * 1000 * ORDER_GOAL.busyShare) / ORDER_GOAL.ordersPerSecond,
    cpuPerOrderInBareRequests: bareCpuPerRequestMs === null ? null : cpuPerOrderMs / bareCpuPerRequestMs,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Measures `work` against the process `pid`; PostgreSQL's CPU is counted with `database` 'postgres' only. */
async function measure<T>(
  pid: number,
  work: () => Promise<T>,
  database: DatabaseKind | null = null,
): Promise<MeasuredCase<T>> {
  const sampler = sampleRss(pid);
  const counting = countCpu(pid, { database: database === 'postgres' });
  const result = await work();
  const { cpu, stolen } = counting.stop();
  const peakRss = sampler.stop();
  // Let the previous case's stragglers and the database settle before the next one.
  await sleep(1000);
  return { result, peakRss, load: loadavg()[0] ?? NaN, stolen, cpu };
}

async function api(
  baseUrl: string,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Carts made through the merchant API, a few requests at a time. */
async function createCarts(
  baseUrl: string,
  merchantKey: string,
  offerId: number,
  count: number,
): Promise<string[]> {
  const headers = { authorization: `Bearer ${merchantKey}` };
  const tokens: string[] = [];
  let made = 0;
  const worker = async () => {
    while (made < count) {
      made++;
      const cart = await api(baseUrl, 'POST', '/checkout/api/merchant/carts', headers, {
        offers: [{ offer_id: offerId, quantity: 1 }],
      });
      tokens.push(String(cart.cart_token));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return tokens;
}

async function shopperHeaders(baseUrl: string): Promise<Record<string, string>> {
  const csrf = await api(baseUrl, 'POST', '/checkout/api/csrf', {}, {});
  const csrfToken = String(csrf.csrfToken);
  const auth = await api(
    baseUrl,
    'POST',
    '/checkout/api/authorize',
    { 'csrf-token': csrfToken },
    { organization: 'demo' },
  );
  return { authorization: `Bearer ${String(auth.access_token)}`, 'csrf-token': csrfToken };
}

async function completedOrdersCounted(baseUrl: string): Promise<number | null> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) return null;
  const text = await response.text();
  const match = /^checkout_orders_completed_total(?:\{[^}]*\})? (\d+)/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** The bare Fastify route, in its own process, at saturation. */
async function runBare(options: ApiBenchOptions, workDir: string): Promise<MeasuredCase<LoadResult>> {
  const { process: bare, match: url } = await startBenchProcess({
    args: ['--import', 'tsx', 'bench/bare-server.ts'],
    env: {},
    logFile: path.join(workDir, 'bare.log'),
    ready: /listening at (http:\/\/\S+)/,
  });
  try {
    await saturate({ url, paths: ['/bare'], connections: options.connections, seconds: 2 }); // warm-up
    return await measure(bare.pid, () =>
      saturate({ url, paths: ['/bare'], connections: options.connections, seconds: options.seconds }),
    );
  } finally {
    await bare.stop();
  }
}

/**
 * The real server (dist/node/server/server.js, built) with the demo store, on a fresh PostgreSQL database or on the
 * embedded PGlite in a new data folder; autocannon runs in this process, the server in its own.
 */
export async function runApiBench(database: DatabaseKind, options: ApiBenchOptions): Promise<ApiBenchResult> {
  const workDir = mkdtempSync(path.join(tmpdir(), `sc-bench-${database}-`));
  const merchantKey = `sk_bench_${randomBytes(16).toString('hex')}`;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(workDir, 'data'),
    MERCHANT_API_KEY: merchantKey,
    TOKEN_SECRET: randomBytes(32).toString('hex'),
    // Every bench shopper tokenizes its card from this one address.
    TEST_PROCESSOR_TOKENS_PER_IP: '100000',
  };
  let dropDatabase: (() => Promise<void>) | null = null;
  if (database === 'postgres') {
    const name = `sc_bench_${randomBytes(6).toString('hex')}`;
    const admin = createPostgresDatabase(options.postgresUrl, { poolSize: 1 });
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(options.postgresUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    };
  }

  let server: BenchProcess | null = null;
  try {
    options.log(`${database}: bare Fastify route`);
    const bare = await runBare(options, workDir);

    const started = await startBenchProcess({
      args: ['dist/node/server/server.js'],
      env,
      logFile: path.join(workDir, 'server.log'),
      ready: /Secure Checkout is running at (http:\/\/\S+)/,
    });
    server = started.process;
    const baseUrl = started.match;
    const processorUrl = /Test card processor: (http:\/\/\S+)/.exec(server.output())?.[1];
    if (!processorUrl) throw new Error('the server printed no test card processor');
    const merchant = { authorization: `Bearer ${merchantKey}` };
    const offers = (await api(baseUrl, 'GET', '/checkout/api/merchant/offers', merchant)).data as {
      id: number;
      item_id: string;
    }[];
    const beans = offers.find((offer) => offer.item_id === 'BEANS-ETH-340');
    if (!beans) throw new Error('the demo store has no BEANS-ETH-340 offer');
    const readCarts = await createCarts(baseUrl, merchantKey, beans.id, 100);
    const headers = await shopperHeaders(baseUrl);
    const saturation = { url: baseUrl, headers, connections: options.connections };
    // Warm-up: the JIT and the database's caches.
    await saturate({ ...saturation, paths: readCarts.map(cartPath), seconds: 2 });
    await saturate({ ...saturation, paths: readCarts.map(previewPath), seconds: 2 });

    options.log(`${database}: GET carts/{token}`);
    const cartRead = await measure(
      server.pid,
      () => saturate({ ...saturation, paths: readCarts.map(cartPath), seconds: options.seconds }),
      database,
    );
    options.log(`${database}: GET carts/{token}/preview`);
    const preview = await measure(
      server.pid,
      () => saturate({ ...saturation, paths: readCarts.map(previewPath), seconds: options.seconds }),
      database,
    );

    options.log(`${database}: shopper flow at saturation (making ${options.saturationOrders} carts)`);
    const flowConnections = options.connections;
    const saturationCarts = await createCarts(baseUrl, merchantKey, beans.id, options.saturationOrders);
    await makeCardTokens(processorUrl, saturationCarts);
    const flowSaturation = await measure(
      server.pid,
      () =>
        runFlows({
          url: baseUrl,
          steps: SHOPPER_FLOW,
          carts: saturationCarts,
          connections: flowConnections,
          maxSeconds: options.seconds * 6,
        }),
      database,
    );

    const flowRates: MeasuredCase<FlowResult>[] = [];
    const flowRateWarmUps: FlowResult[] = [];
    for (const rate of options.rates) {
      // Past saturation the queue only grows: send about `seconds` worth of the rate reached, at the target rate.
      const reachable = Math.min(rate, flowSaturation.result.rate * 1.1);
      const orders = Math.ceil(reachable * options.seconds);
      const warmUpOrders = Math.ceil(reachable * options.warmUpSeconds);
      options.log(`${database}: shopper flow at ${rate} orders/s (making ${warmUpOrders} + ${orders} carts)`);
      const carts = await createCarts(baseUrl, merchantKey, beans.id, warmUpOrders + orders);
      await makeCardTokens(processorUrl, carts);
      const atRate = (some: string[]) =>
        runFlowsAtRate({
          url: baseUrl,
          steps: SHOPPER_FLOW,
          carts: some,
          target: rate,
          maxConnections: 256,
          maxSeconds: options.seconds * 6,
        });
      flowRateWarmUps.push(await atRate(carts.slice(0, warmUpOrders)));
      flowRates.push(await measure(server.pid, () => atRate(carts.slice(warmUpOrders)), database));
    }

    const byLoadGenerator =
      flowSaturation.result.completed +
      flowRates.reduce((sum, run) => sum + run.result.completed, 0) +
      flowRateWarmUps.reduce((sum, run) => sum + run.completed, 0);
    const memory = memoryOf(server.pid);
    return {
      database,
      server: 'node dist/node/server/server.js (built), LOG_LEVEL info (default), logs to a file',
      bare,
      cartRead,
      preview,
      flowSaturation,
      flowRates,
      flowRateWarmUps,
      ordersCounted: { byServer: await completedOrdersCounted(baseUrl), byLoadGenerator },
      lifetimePeakRss: memory?.peak ?? null,
      hostBudget: hostBudget(cpus().length, flowSaturation, bare),
    };
  } finally {
    await server?.stop();
    await dropDatabase?.();
    rmSync(workDir, { recursive: true, force: true });
  }
}
