// Prints the checkout page's first-load JavaScript and CSS (what index.html references: the entry script, its
// modulepreloaded chunks and stylesheets) and the chunks loaded later on demand, raw, gzip and brotli, as served.
// Run after `npm run build:client` (or use `npm run bench:bundle`). `--json` prints the figures as JSON.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const clientDir = path.resolve(import.meta.dirname, '../dist/client');
const BUDGET_GZIP_BYTES = 100 * 1024;

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
  const lazyJs = allAssets.filter((file) => file.endsWith('.js') && !firstJs.includes(file));
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

  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ totals, first, later, budgetGzipBytes: BUDGET_GZIP_BYTES }, null, 2));
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
}

await main();
