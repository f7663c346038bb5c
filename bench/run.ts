// npm run bench: every benchmark, each measured beside its physical limit in the same run, printed as tables and
// written to bench/results/bench-<time>.json. Benchmarks print figures; they never fail on timing.
//   --only api|page        one family
//   --databases postgres,pglite
//   --quick                shorter runs (a smoke test of the bench itself)
//   --no-build             use the existing dist/
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPostgresDatabase } from '../src/server/platform/db/postgres.js';
import { ORDER_GOAL, runApiBench, type ApiBenchResult, type DatabaseKind } from './api-bench.js';
import { projectRoot } from './bench-process.js';
import type { FlowResult } from './load.js';
import { runPageBench, type PageBenchResult } from './page-bench.js';
import { formatTable, goal, kb, mb, ms, percent, stolen, whole } from './table.js';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    databases: { type: 'string', default: 'postgres,pglite' },
    quick: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (line: string) => console.log(`· ${line}`);

function machine() {
  const cpu = cpus();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectRoot }).toString().trim();
  } catch {
    // not a git checkout
  }
  return {
    cpus: cpu.length,
    cpuModel: cpu[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    commit,
    loadAverage: loadavg().map((n) => Number(n.toFixed(2))),
  };
}

async function postgresReachable(): Promise<string | null> {
  const db = createPostgresDatabase(postgresUrl, { poolSize: 1 });
  try {
    await db.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await db.close().catch(() => {});
  }
}

/** The order goal holds at the rate, not below it: the orders must have come in at 200/s and been answered as fast. */
const orderGoalMet = (r: FlowResult) =>
  r.lastP99 < ORDER_GOAL.p99Ms && r.rate >= 0.95 * ORDER_GOAL.ordersPerSecond;

function printApi(result: ApiBenchResult): void {
  const bareRate = result.bare.result.rate;
  const title =
    result.database === 'postgres' ? 'PostgreSQL (fresh database)' : 'embedded PGlite (new data folder)';
  console.log(`\nAPI on ${title}: ${result.server}`);
  console.log(
    `load generator in the bench process: autocannon for saturation (${result.cartRead.result.connections} ` +
      `connections, ${result.cartRead.result.seconds.toFixed(0)} s); at a target rate, shoppers start evenly ` +
      `spaced whether or not earlier ones finished (undici, keep-alive), flow latency counted from when each was due, ` +
      `after a warm-up at the same rate that is not counted`,
  );
  const route = (name: string, measured: ApiBenchResult['bare'], note: string) => [
    name,
    `${whole(measured.result.rate)}/s`,
    ms(measured.result.p50),
    ms(measured.result.p99),
    percent(measured.result.rate / bareRate),
    mb(measured.peakRss),
    `${measured.result.non2xx + measured.result.errors}`,
    measured.load.toFixed(1),
    stolen(measured.stolen),
    note,
  ];
  // The API's goals are PostgreSQL's (docs/operations.md#capacity); the embedded database's say when to move to it.
  const ownGoals = result.database === 'postgres';
  const apiGoal = ownGoals
    ? goal
    : (met: boolean, text: string) => `PostgreSQL's goal, ${met ? 'also met' : 'not met'} here: ${text}`;
  console.log(
    formatTable([
      ['route (saturation)', 'rate', 'p50', 'p99', 'of bare', 'peak RSS', 'failed', 'load', 'stolen', ''],
      route('bare Fastify GET /bare (the limit)', result.bare, 'bare server process'),
      route('GET carts/{token}', result.cartRead, 'read from the database'),
      route('GET carts/{token}/preview', result.preview, ''),
    ]),
  );
  const flow = (name: string, measured: ApiBenchResult['flowSaturation']) => {
    const r = measured.result;
    const failed = Object.entries(r.failures)
      .map(([key, n]) => `${key} x${n}`)
      .join(', ');
    const met =
      r.target === ORDER_GOAL.ordersPerSecond
        ? apiGoal(orderGoalMet(r), `order p99 < ${ORDER_GOAL.p99Ms} ms at ${ORDER_GOAL.ordersPerSecond}/s`)
        : '';
    const perOrder = (total: number | null) =>
      total === null || r.completed === 0 ? '-' : (total / r.completed).toFixed(1);
    const { cpu } = measured;
    return [
      name,
      `${r.rate.toFixed(1)}/s`,
      `${r.completed}/${r.flows}`,
      ms(r.lastP50),
      ms(r.lastP99),
      ms(r.flowP50),
      ms(r.flowP99),
      cpu.machine === null || r.completed === 0 ? '-' : ms(cpu.machine / r.completed),
      [cpu.server, cpu.database, cpu.loadGenerator].map(perOrder).join(' / '),
      percent((r.rate * 5) / bareRate),
      mb(measured.peakRss),
      measured.load.toFixed(1),
      stolen(measured.stolen),
      [met, failed].filter(Boolean).join('; '),
    ];
  };
  console.log('');
  console.log(
    formatTable([
      [
        'shopper flow (csrf, authorize, cart, preview, order)',
        'orders',
        'done',
        'order p50',
        'order p99',
        'flow p50',
        'flow p99',
        'CPU/order',
        'srv / db / gen',
        'req of bare',
        'peak RSS',
        'load',
        'stolen',
        '',
      ],
      flow(`saturation, ${result.flowSaturation.result.connections} connections`, result.flowSaturation),
      ...result.flowRates.map((run) =>
        flow(
          `target ${run.result.target ?? '-'}/s, open: ${run.result.peakInFlight ?? '-'} in flight at most`,
          run,
        ),
      ),
    ]),
  );
  console.log(
    `warm-up before each rate, not counted above (${result.flowRateWarmUps[0]?.seconds.toFixed(0) ?? '-'} s or so): ` +
      result.flowRateWarmUps
        .map((run) => `${run.target ?? '-'}/s order p99 ${ms(run.lastP99)} (${run.completed}/${run.flows})`)
        .join(', '),
  );
  console.log(
    `orders completed: ${result.ordersCounted.byLoadGenerator} seen by the load generator, ` +
      `${result.ordersCounted.byServer ?? '-'} counted by the server's /metrics; ` +
      `server lifetime peak RSS ${mb(result.lifetimePeakRss)}`,
  );
  const budget = result.hostBudget;
  if (budget) {
    // An estimate from the saturation run, whose 32 connections cost more CPU per order than a steady 200/s does:
    // within a tenth of the budget it cannot tell, and the run at the goal's rate, when there is one, says what held.
    const share = budget.cpuPerOrderMs / budget.neededCpuPerOrderMs;
    const verdict = share <= 0.9 ? 'within' : share <= 1.1 ? 'at the edge of' : 'out of';
    const atGoal = result.flowRates.find((run) => run.result.target === ORDER_GOAL.ordersPerSecond);
    console.log(
      `this machine: the flow at saturation took ${ms(budget.cpuPerOrderMs)} of CPU per order (all processes), so ` +
        `its ${budget.cores} cores, every one busy, place at most ${whole(budget.ordersPerSecondAtFullUse)} ` +
        `orders/s; ${ORDER_GOAL.ordersPerSecond} orders/s with a short queue (cores about ` +
        `${percent(ORDER_GOAL.busyShare)} busy) needs ${ms(budget.neededCpuPerOrderMs)} or less per order, ` +
        `${percent(share)} of which this run took: by this estimate ${ownGoals ? 'the' : "PostgreSQL's"} order goal is ` +
        `${verdict} this machine's reach at this build's CPU per order` +
        (atGoal
          ? ` (the run at ${ORDER_GOAL.ordersPerSecond}/s above: ${orderGoalMet(atGoal.result) ? 'met' : 'missed'})`
          : '') +
        (budget.cpuPerOrderInBareRequests === null
          ? ''
          : `; an order took the CPU of ${whole(budget.cpuPerOrderInBareRequests)} requests to the bare route`),
    );
  }
  console.log(
    "CPU/order: the machine's busy CPU time over the case per order placed (both cores; a flow is five requests); " +
      'srv / db / gen: of it, ms per order used by the server process, by PostgreSQL on this machine (- when it runs ' +
      'elsewhere or embedded in the server) and by the load generator',
  );
  console.log(
    "stolen: the share of the machine's CPU time the host gave to other virtual machines during the case (steal in " +
      '/proc/stat); cases with much of it stolen are slower for that, not for the code',
  );
}

function printPage(result: PageBenchResult): void {
  console.log(`\nPage: ${result.method}`);
  const bytes = (page: PageBenchResult['checkout']) => [
    kb(page.firstLoad.js.gzip),
    kb(page.firstLoad.js.brotli),
    kb(page.firstLoad.css.gzip),
    kb(page.firstLoad.css.brotli),
  ];
  const { checkout, floor } = result;
  const row = (name: string, page: PageBenchResult['checkout']) => [
    name,
    ...bytes(page),
    String(page.lighthouse.performance),
    String(page.lighthouse.accessibility),
    String(page.lighthouse.bestPractices),
    ms(page.lighthouse.lcpMs),
    ms(page.lighthouse.tbtMs),
    page.lighthouse.cls.toFixed(3),
  ];
  const c = checkout.lighthouse;
  console.log(
    formatTable([
      ['page', 'JS gzip', 'JS br', 'CSS gzip', 'CSS br', 'perf', 'a11y', 'best pr.', 'LCP', 'TBT', 'CLS'],
      row('checkout page (demo cart)', checkout),
      row('bare React hello (the floor)', floor),
      [
        'checkout / floor',
        percent(checkout.firstLoad.js.gzip / floor.firstLoad.js.gzip),
        percent(checkout.firstLoad.js.brotli / floor.firstLoad.js.brotli),
        '',
        '',
        percent(c.performance / floor.lighthouse.performance),
        '',
        '',
        percent(c.lcpMs / floor.lighthouse.lcpMs),
        '',
        '',
      ],
    ]),
  );
  console.log(
    [
      goal(checkout.firstLoad.js.gzip <= 100 * 1024, 'first-load JS <= 100 KB gzip'),
      goal(c.performance >= 98, 'performance >= 98'),
      goal(c.accessibility >= 100, 'accessibility 100'),
      goal(c.lcpMs <= 1500, 'LCP <= 1.5 s'),
      goal(c.tbtMs <= 50, 'TBT <= 50 ms'),
      goal(c.cls <= 0.02, 'CLS <= 0.02'),
    ].join(' · '),
  );
  // The card frame's own first load, from its built page (docs/payments.md): it loads beside the checkout's.
  const frame = result.bundle?.cardFrame;
  console.log(
    frame
      ? `card frame (${frame.html}): first-load JS ${kb(frame.firstLoadJs.gzip)} gzip / ${kb(frame.firstLoadJs.brotli)} br ` +
          `beside the checkout's ${kb(checkout.firstLoad.js.gzip)} gzip · ` +
          goal(
            frame.firstLoadJs.gzip <= frame.budgetGzipBytes,
            `card frame JS <= ${kb(frame.budgetGzipBytes)} gzip`,
          )
      : 'card frame: not built',
  );
  // The dashboard's own first load (docs/dashboard.md): never part of the checkout's.
  const dashboard = result.bundle?.dashboard;
  console.log(
    dashboard
      ? `dashboard (${dashboard.html}): first-load JS ${kb(dashboard.firstLoadJs.gzip)} gzip / ${kb(dashboard.firstLoadJs.brotli)} br · ` +
          goal(
            dashboard.firstLoadJs.gzip <= dashboard.budgetGzipBytes,
            `dashboard JS <= ${kb(dashboard.budgetGzipBytes)} gzip`,
          )
      : 'dashboard: not built',
  );
  console.log(
    `framed during Lighthouse: ${c.framed.length > 0 ? c.framed.join(', ') : 'nothing (the card frame was not on the page)'}`,
  );
  if (result.bundle) {
    const { totals } = result.bundle;
    console.log(
      `bench/bundle-size.ts: first-load JS ${kb(totals.firstLoadJs.gzip)} gzip (files), loaded on demand later: ` +
        `JS ${kb(totals.lazyJs.gzip)} gzip / ${kb(totals.lazyJs.brotli)} br, CSS ${kb(totals.lazyCss.gzip)} gzip`,
    );
  }
  console.log(`Lighthouse ${result.lighthouseVersion}, ${result.runs} runs each (medians), ${result.chrome}`);
  for (const [name, page] of [
    ['checkout', checkout],
    ['floor', floor],
  ] as const) {
    // The medians hide a wide spread on a shared machine: each run, as measured.
    const runs = page.lighthouse.runs.map(
      (run) => `${run.performance}, ${ms(run.lcpMs)}, ${ms(run.tbtMs)}, ${stolen(run.stolen)}`,
    );
    console.log(`${name}, each run (performance, LCP, TBT, CPU stolen by the host): ${runs.join(' · ')}`);
    if (page.lighthouse.failedRuns.length > 0) {
      console.log(`${name}: Lighthouse runs tried again after ${page.lighthouse.failedRuns.join(', ')}`);
    }
  }
}

async function main() {
  const started = new Date();
  const quick = args.quick ?? false;
  const only = args.only;
  const results: {
    startedAt: string;
    finishedAt?: string;
    machine: ReturnType<typeof machine>;
    machineAtEnd?: ReturnType<typeof machine>;
    api: ApiBenchResult[];
    apiSkipped: string[];
    page: PageBenchResult | null;
  } = { startedAt: started.toISOString(), machine: machine(), api: [], apiSkipped: [], page: null };
  console.log(
    `Secure Checkout benchmarks on ${results.machine.cpus} x ${results.machine.cpuModel}, ` +
      `${results.machine.memoryGb} GB, Node ${results.machine.node}, commit ${results.machine.commit}; ` +
      `load average ${results.machine.loadAverage.join(' ')}`,
  );

  if (!args['no-build']) {
    log('npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }

  if (only === undefined || only === 'api') {
    const databases = (args.databases ?? '').split(',').filter(Boolean) as DatabaseKind[];
    for (const database of databases) {
      if (database === 'postgres') {
        const problem = await postgresReachable();
        if (problem) {
          const note = `PostgreSQL at ${postgresUrl} is not reachable (${problem}): its API figures are skipped`;
          results.apiSkipped.push(note);
          console.log(`\n${note}`);
          continue;
        }
      }
      const result = await runApiBench(database, {
        seconds: quick ? 3 : 10,
        connections: 32,
        // 100 and 150 show where the order p99 goal still holds on a machine that cannot take 200.
        rates: [50, 100, 150, 200, 500],
        warmUpSeconds: quick ? 1 : 3,
        saturationOrders: quick ? 300 : database === 'postgres' ? 1600 : 800,
        postgresUrl,
        log,
      });
      results.api.push(result);
      printApi(result);
    }
  }

  if (only === undefined || only === 'page') {
    results.page = await runPageBench({ runs: quick ? 1 : 5, log });
    printPage(results.page);
  }

  results.finishedAt = new Date().toISOString();
  results.machineAtEnd = machine();
  const dir = path.join(projectRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `\nload average at the end: ${results.machineAtEnd.loadAverage.join(' ')} (${results.machine.cpus} cores)`,
  );
  console.log(`written to ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
