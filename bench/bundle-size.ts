// Prints the checkout page's first-load JavaScript and CSS (what index.html references: the entry script, its
// modulepreloaded chunks and stylesheets) and the chunks loaded later on demand, raw, gzip and brotli, as served.
// Beside it, the card frame's own first load (the test processor's card fields, docs/payments.md), from the frame's
// built HTML page in dist/ ("card frame: not built" when there is none yet).
// Run after `npm run build:client` (or use `npm run bench:bundle`). `--json` prints the figures as JSON.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const distDir = path.resolve(import.meta.dirname, '../dist');
const clientDir = path.join(distDir, 'client');
const BUDGET_GZIP_BYTES = 100 * 1024;
/** The card frame loads beside the checkout on a shopper's connection: its fields must be up as fast (docs/payments.md). */
const CARD_FRAME_BUDGET_GZIP_BYTES = 25 * 1024;
/** The dashboard is the merchant's, on an office connection, opened for a while: a larger budget (docs/dashboard.md). */
const DASHBOARD_BUDGET_GZIP_BYTES = 200 * 1024;

interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

async function sizesOf(file: string): Promise<Sizes> {
  const source = await readFile(file);
  // The server sends the precompressed siblings written at build time; measure those when present.
  const gzip = existsSync(`${file}.gz`)
    ? (await readFile(`${file}.gz`)).length
    : gzipSync(source, { level: 9 }).length;
  const brotli = existsSync(`${file}.br`)
    ? (await readFile(`${file}.br`)).length
    : brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { raw: source.length, gzip, brotli };
}

const sum = (list: Sizes[]): Sizes =>
  list.reduce(
    (total, item) => ({
      raw: total.raw + item.raw,
      gzip: total.gzip + item.gzip,
      brotli: total.brotli + item.brotli,
    }),
    {
      raw: 0,
      gzip: 0,
      brotli: 0,
    },
  );

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** The built card frame's page: an HTML file of dist/ named like the frame (card-frame…, frame.html), or null. */
function isCardFrameHtml(relativePath: string): boolean {
  const file = relativePath.split(path.sep).join('/').toLowerCase();
  return file.endsWith('.html') && (/(^|\/)frame\.html$/.test(file) || file.includes('card-frame'));
}

/**
 * The card frame's first load: the scripts and module preloads of its HTML page, found by file name anywhere in dist/
 * (the frame may be served under another base than the checkout). Null when no frame page is built.
 */
async function cardFrameFirstLoad(): Promise<{ html: string; js: { file: string; sizes: Sizes }[] } | null> {
  const files = await filesUnder(distDir);
  // The card fields' page (card-frame/index.html) before any other page of the frame's build (its challenge page).
  const pages = files.filter((file) => isCardFrameHtml(path.relative(distDir, file)));
  const html = pages.find((file) => path.basename(file) === 'index.html') ?? pages[0];
  if (html === undefined) return null;
  const text = await readFile(html, 'utf8');
  const refs = [
    ...text.matchAll(/<script[^>]*\bsrc="([^"]+)"/g),
    ...text.matchAll(/<link[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
    ...text.matchAll(/<link[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g),
  ].map((match) => match[1] ?? '');
  const js: { file: string; sizes: Sizes }[] = [];
  for (const ref of new Set(refs)) {
    const name = path.basename(ref.split(/[?#]/)[0] ?? '');
    // By name: hashed names are unique, and the frame's base path is its server's business.
    const file = files.find((candidate) => path.basename(candidate) === name && candidate.endsWith('.js'));
    if (file) js.push({ file: path.relative(distDir, file), sizes: await sizesOf(file) });
  }
  return { html: path.relative(distDir, html), js };
}

/** The dashboard's first load: the scripts and module preloads of dist/client/admin/index.html, or null unbuilt. */
async function dashboardFirstLoad(): Promise<{
  html: string;
  files: ({ file: string } & Sizes)[];
  firstLoadJs: Sizes;
  budgetGzipBytes: number;
} | null> {
  const html = path.join(clientDir, 'admin', 'index.html');
  if (!existsSync(html)) return null;
  const text = await readFile(html, 'utf8');
  const refs = [
    ...text.matchAll(/<script[^>]*\bsrc="\/admin\/([^"]+\.js)"/g),
    ...text.matchAll(/<link[^>]*\bhref="\/admin\/([^"]+\.js)"[^>]*>/g),
  ].map((match) => match[1] ?? '');
  const files = await Promise.all(
    [...new Set(refs)].map(async (ref) => ({
      file: path.join('client', 'admin', ref),
      ...(await sizesOf(path.join(clientDir, 'admin', ref))),
    })),
  );
  return {
    html: path.relative(distDir, html),
    files,
    firstLoadJs: sum(files),
    budgetGzipBytes: DASHBOARD_BUDGET_GZIP_BYTES,
  };
}

async function main() {
  const indexFile = path.join(clientDir, 'index.html');
  if (!existsSync(indexFile)) {
    console.error('dist/client/index.html is missing: run `npm run build:client` first.');
    process.exit(1);
  }
  const html = await readFile(indexFile, 'utf8');
  const referenced = [...html.matchAll(/(?:src|href)="\/checkout\/(assets\/[^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
  const firstJs = referenced.filter((file) => file.endsWith('.js'));
  const firstCss = referenced.filter((file) => file.endsWith('.css'));
  const allAssets = (await readdir(path.join(clientDir, 'assets'))).map((file) => `assets/${file}`);
  const frame = await cardFrameFirstLoad();
  // The frame's own files load in the frame, on its origin: not the checkout's on-demand chunks.
  const frameFiles = new Set(
    frame?.js.map((item) => path.relative(clientDir, path.join(distDir, item.file))),
  );
  const lazyJs = allAssets.filter(
    (file) => file.endsWith('.js') && !firstJs.includes(file) && !frameFiles.has(file),
  );
  const lazyCss = allAssets.filter((file) => file.endsWith('.css') && !firstCss.includes(file));

  const measure = async (files: string[]) =>
    Promise.all(files.map(async (file) => ({ file, ...(await sizesOf(path.join(clientDir, file))) })));
  const first = { js: await measure(firstJs), css: await measure(firstCss) };
  const later = { js: await measure(lazyJs), css: await measure(lazyCss) };
  const totals = {
    firstLoadJs: sum(first.js),
    firstLoadCss: sum(first.css),
    lazyJs: sum(later.js),
    lazyCss: sum(later.css),
  };

  const cardFrame =
    frame === null
      ? null
      : {
          html: frame.html,
          files: frame.js.map((item) => ({ file: item.file, ...item.sizes })),
          firstLoadJs: sum(frame.js.map((item) => item.sizes)),
          budgetGzipBytes: CARD_FRAME_BUDGET_GZIP_BYTES,
        };

  const dashboard = await dashboardFirstLoad();

  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify(
        { totals, first, later, budgetGzipBytes: BUDGET_GZIP_BYTES, cardFrame, dashboard },
        null,
        2,
      ),
    );
    return;
  }
  const row = (label: string, sizes: Sizes) =>
    console.log(
      `${label.padEnd(46)} ${kb(sizes.raw).padStart(10)} ${kb(sizes.gzip).padStart(10)} ${kb(sizes.brotli).padStart(10)}`,
    );
  console.log(
    `${'checkout page assets'.padEnd(46)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`,
  );
  for (const item of [...first.js, ...first.css]) row(`  first load  ${item.file}`, item);
  for (const item of [...later.js, ...later.css]) row(`  on demand   ${item.file}`, item);
  row('first-load JavaScript', totals.firstLoadJs);
  row('first-load CSS', totals.firstLoadCss);
  row('on-demand JavaScript (express, gifts, payment…)', totals.lazyJs);
  const verdict = totals.firstLoadJs.gzip <= BUDGET_GZIP_BYTES ? 'within' : 'OVER';
  console.log(`first-load JavaScript is ${verdict} the ${kb(BUDGET_GZIP_BYTES)} gzip goal`);
  if (cardFrame === null) {
    console.log('card frame: not built (no card-frame or frame.html page in dist/)');
    return;
  }
  for (const item of cardFrame.files) row(`  card frame  ${item.file}`, item);
  row(`card frame first-load JavaScript (${cardFrame.html})`, cardFrame.firstLoadJs);
  const frameVerdict = cardFrame.firstLoadJs.gzip <= CARD_FRAME_BUDGET_GZIP_BYTES ? 'within' : 'OVER';
  console.log(
    `card frame first-load JavaScript is ${frameVerdict} the ${kb(CARD_FRAME_BUDGET_GZIP_BYTES)} gzip goal`,
  );
  if (dashboard === null) {
    console.log('dashboard: not built (no dist/client/admin/index.html)');
    return;
  }
  for (const item of dashboard.files) row(`  dashboard   ${item.file}`, item);
  row(`dashboard first-load JavaScript (${dashboard.html})`, dashboard.firstLoadJs);
  const dashboardVerdict = dashboard.firstLoadJs.gzip <= DASHBOARD_BUDGET_GZIP_BYTES ? 'within' : 'OVER';
  console.log(
    `dashboard first-load JavaScript is ${dashboardVerdict} the ${kb(DASHBOARD_BUDGET_GZIP_BYTES)} gzip goal`,
  );
}

await main();
