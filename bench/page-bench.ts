import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { DEFAULT_CHROMIUM_PATH, QUIET_CHROMIUM_FLAGS } from '../tests/helpers/chromium.js';
import { freePort } from '../tests/helpers/checkout-server.js';
import {
  machineCpuTicks,
  projectRoot,
  startBenchProcess,
  stolenShare,
  type BenchProcess,
} from './bench-process.js';

export interface Bytes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface PageFigures {
  url: string;
  /** the HTML document as served (not compressed by the server) */
  htmlBytes: number;
  /** what index.html loads before the page can run: entry script, modulepreloads, stylesheets */
  firstLoad: { js: Bytes; css: Bytes; files: string[] };
  lighthouse: {
    performance: number;
    accessibility: number;
    bestPractices: number;
    lcpMs: number;
    tbtMs: number;
    cls: number;
    /** each run's figures, for the spread; stolen: the host's share of the machine's CPU during the run, or null */
    runs: { performance: number; lcpMs: number; tbtMs: number; cls: number; stolen: number | null }[];
    /** runs Lighthouse could not complete (tried again) */
    failedRuns: string[];
    /** documents of other origins the page framed while Lighthouse ran (the card frame), from its last run */
    framed: string[];
  };
}

/** bench/bundle-size.ts --json (the page's own size report, from dist/client): what loads later, on demand. */
export interface BundleReport {
  totals: { firstLoadJs: Bytes; firstLoadCss: Bytes; lazyJs: Bytes; lazyCss: Bytes };
  /** the card frame's own page and first-load JavaScript, null while the frame is not built */
  cardFrame: { html: string; firstLoadJs: Bytes; budgetGzipBytes: number } | null;
  /** the dashboard's own first-load JavaScript (dist/client/admin), null while it is not built */
  dashboard?: { html: string; firstLoadJs: Bytes; budgetGzipBytes: number } | null;
}

export interface PageBenchResult {
  method: string;
  /** the checkout page's chunks as bench/bundle-size.ts counts them from the build */
  bundle: BundleReport | null;
  lighthouseVersion: string;
  chrome: string;
  runs: number;
  checkout: PageFigures;
  floor: PageFigures;
}

export const CHROME_FLAGS = ['--headless=new', ...QUIET_CHROMIUM_FLAGS];

const CHROME_PATH = process.env.CHROME_PATH ?? DEFAULT_CHROMIUM_PATH;

/** The bytes of one response as they travel, asking for one encoding; throws when the server sends another. */
function servedBytes(url: string, encoding: 'identity' | 'gzip' | 'br'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      let size = 0;
      response.on('data', (chunk: Buffer) => (size += chunk.length));
      response.on('end', () => {
        const sent = response.headers['content-encoding'] ?? 'identity';
        if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
        else if (sent !== encoding) reject(new Error(`${url}: asked for ${encoding}, got ${sent}`));
        else resolve(size);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function firstLoadOf(pageUrl: string, html: string): Promise<PageFigures['firstLoad']> {
  const refs = new Set<string>();
  for (const match of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) if (match[1]) refs.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(match[0])?.[1];
    if (href) refs.add(href);
  }
  const js: Bytes = { raw: 0, gzip: 0, brotli: 0 };
  const css: Bytes = { raw: 0, gzip: 0, brotli: 0 };
  for (const ref of refs) {
    const url = new URL(ref, pageUrl).toString();
    const into = ref.endsWith('.css') ? css : js;
    into.raw += await servedBytes(url, 'identity');
    into.gzip += await servedBytes(url, 'gzip');
    into.brotli += await servedBytes(url, 'br');
  }
  return { js, css, files: [...refs] };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

/** Lighthouse's default run (mobile, simulated throttling) in a fresh Chromium per run. */
async function lighthouseRuns(
  url: string,
  runs: number,
): Promise<PageFigures['lighthouse'] & { version: string }> {
  const results: (Omit<PageFigures['lighthouse'], 'runs' | 'failedRuns' | 'framed'> & {
    stolen: number | null;
  })[] = [];
  let framed: string[] = [];
  let version = '';
  const problems: string[] = [];
  // Lighthouse now and then fails to record a trace (NO_NAVSTART and the like): such a run is tried again.
  for (let i = 0, tries = 0; i < runs && tries < runs * 3; tries++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    try {
      const ticks = machineCpuTicks();
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      const lhr = result?.lhr;
      if (!lhr || lhr.runtimeError) {
        problems.push(lhr?.runtimeError?.code ?? 'no result');
        continue;
      }
      version = lhr.lighthouseVersion;
      framed = framedDocuments(url, lhr.audits['network-requests']?.details);
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? NaN) * 100);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      results.push({
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        lcpMs: audit('largest-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        stolen: stolenShare(ticks, machineCpuTicks()),
      });
      i++;
    } finally {
      chrome.kill();
    }
  }
  if (results.length === 0)
    throw new Error(`Lighthouse failed on every try for ${url}: ${problems.join(', ')}`);
  return {
    version,
    performance: median(results.map((r) => r.performance)),
    accessibility: median(results.map((r) => r.accessibility)),
    bestPractices: median(results.map((r) => r.bestPractices)),
    lcpMs: median(results.map((r) => r.lcpMs)),
    tbtMs: median(results.map((r) => r.tbtMs)),
    cls: median(results.map((r) => r.cls)),
    runs: results.map(({ performance, lcpMs, tbtMs, cls, stolen }) => ({
      performance,
      lcpMs,
      tbtMs,
      cls,
      stolen,
    })),
    failedRuns: problems,
    framed,
  };
}

/**
 * The documents of other origins among a run's requests: the frames the page loaded (the card frame on the test
 * processor's origin, or Stripe's), so the figures say whether the frame was on the page they measured.
 */
function framedDocuments(pageUrl: string, details: unknown): string[] {
  const items = (details as { items?: { url?: string; resourceType?: string }[] } | undefined)?.items ?? [];
  const origin = new URL(pageUrl).origin;
  return items
    .filter((item) => item.resourceType === 'Document' && item.url && new URL(item.url).origin !== origin)
    .map((item) => {
      const url = new URL(item.url ?? '');
      return `${url.origin}${url.pathname}`;
    });
}

async function measurePage(url: string, runs: number) {
  const response = await fetch(url);
  const html = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const firstLoad = await firstLoadOf(url, html);
  const { version, ...figures } = await lighthouseRuns(url, runs);
  return { version, page: { url, htmlBytes: Buffer.byteLength(html), firstLoad, lighthouse: figures } };
}

function buildFloorPage(): string {
  const outDir = path.join(projectRoot, 'bench/hello/dist');
  const steps = [
    ['npx', ['vite', 'build', '--config', 'bench/hello/vite.config.ts', '--logLevel', 'warn']],
    ['npx', ['tsx', 'scripts/compress-assets.ts', outDir]],
  ] as const;
  for (const [command, commandArgs] of steps) {
    const run = spawnSync(command, commandArgs, { cwd: projectRoot, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed:\n${run.stderr}`);
  }
  return outDir;
}

/**
 * A cart of the demo store whose contact and shipping address are given (the merchant API), so its page opens at the
 * payment step with the card processor's frame on it: the page a shopper pays on.
 */
async function cartAtPayment(server: BenchProcess, demoCheckoutUrl: string): Promise<string> {
  const key = /Merchant API key \(demo organization\): (\S+)/.exec(server.output())?.[1];
  if (!key) throw new Error('the checkout server printed no merchant key');
  const base = new URL(demoCheckoutUrl).origin;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const offers = (await (await fetch(`${base}/checkout/api/merchant/offers`, { headers })).json()) as {
    data: { id: number; item_id: string }[];
  };
  const beans = offers.data.find((offer) => offer.item_id === 'BEANS-ETH-340');
  if (!beans) throw new Error('the demo store has no BEANS-ETH-340 offer');
  const created = await fetch(`${base}/checkout/api/merchant/carts`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      offers: [{ offer_id: beans.id, quantity: 1 }],
      customer: {
        email: 'ada@example.com',
        ship_fname: 'Ada',
        ship_lname: 'Lovelace',
        ship_address1: '1 Congress Ave',
        ship_city: 'Austin',
        ship_state: 'TX',
        ship_zipcode: '73301',
        ship_country: 'US',
      },
    }),
  });
  const cart = (await created.json()) as { checkout_url?: string };
  if (!created.ok || !cart.checkout_url)
    throw new Error(`POST carts: ${created.status} ${JSON.stringify(cart)}`);
  return cart.checkout_url;
}

/**
 * The built checkout page served by the built server (embedded database, demo store) on its demo cart, beside a
 * bare React page built by the same toolchain and served by the same routes (the floor).
 */
export async function runPageBench(options: {
  runs: number;
  log: (line: string) => void;
}): Promise<PageBenchResult> {
  if (!existsSync(path.join(projectRoot, 'dist/client/index.html'))) {
    throw new Error('dist/client is missing: run npm run build first');
  }
  const chrome = spawnSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const workDir = mkdtempSync(path.join(tmpdir(), 'sc-bench-page-'));
  const servers: BenchProcess[] = [];
  try {
    options.log('page: building the bare React page');
    const floorDir = buildFloorPage();
    // The card frame on another site than the page, as a real processor's is (Stripe's): Chromium then runs it in a
    // process of its own, not on the page's main thread, as it would for a shopper.
    const processorPort = await freePort();
    const checkoutServer = await startBenchProcess({
      args: ['dist/node/server/server.js'],
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: path.join(workDir, 'data'),
        LOG_LEVEL: 'warn',
        TEST_PROCESSOR_PORT: String(processorPort),
        TEST_PROCESSOR_URL: `http://localhost:${processorPort}`,
      },
      logFile: path.join(workDir, 'checkout.log'),
      ready: /Checkout: (http:\/\/\S+)/,
    });
    servers.push(checkoutServer.process);
    const floorServer = await startBenchProcess({
      args: ['--import', 'tsx', 'bench/serve-page.ts', floorDir],
      env: {},
      logFile: path.join(workDir, 'floor.log'),
      ready: /Checkout: (http:\/\/\S+)/,
    });
    servers.push(floorServer.process);

    const bundleRun = spawnSync('npx', ['tsx', 'bench/bundle-size.ts', '--json'], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    const bundle = bundleRun.status === 0 ? (JSON.parse(bundleRun.stdout) as BundleReport) : null;

    options.log(
      `page: checkout page at its payment step (the card frame on it), Lighthouse x${options.runs}`,
    );
    const checkout = await measurePage(
      await cartAtPayment(checkoutServer.process, checkoutServer.match),
      options.runs,
    );
    options.log(`page: bare React page, Lighthouse x${options.runs}`);
    const floor = await measurePage(floorServer.match, options.runs);
    return {
      method:
        'checkout: node dist/node/server/server.js (npm run build) on a demo cart with the contact and shipping ' +
        "address given, so the page opens at payment with the card processor's frame; floor: bench/hello built by " +
        'the same Vite and React plugin, precompressed, served by the same page routes (bench/serve-page.ts); ' +
        'bytes as served for each encoding',
      bundle,
      lighthouseVersion: checkout.version,
      chrome,
      runs: options.runs,
      checkout: checkout.page,
      floor: floor.page,
    };
  } finally {
    for (const server of servers) await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}
