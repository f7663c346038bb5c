import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The built page (npm run build) checks the server's answers with the contract's schemas; the modules that hold them
// also hold the requests' schemas, which the page never uses. Building those took half of the page's schema chunk's
// evaluation (a median of 75 ms against 39 ms without them, in Chromium under a four-times CPU throttle): they are marked
// for the bundler to leave out (unlessUnused in src/contract/zod.ts), and this keeps them out.

const projectRoot = path.resolve(import.meta.dirname, '../..');
const assets = path.join(projectRoot, 'dist/client/assets');

/** A message (or its catalogue key) of one request schema of each contract module the page imports, and where. */
const REQUEST_MESSAGES = [
  { module: 'handshake.ts', message: 'Name the organization.' },
  { module: 'handshake.ts', message: 'csrfTokenExpiry must be a number of seconds.' },
  { module: 'cart.ts', message: 'errors.field_quantity_whole' },
  { module: 'cart.ts', message: 'errors.field_gift_line' },
  { module: 'common.ts', message: 'errors.field_positive_id' },
  { module: 'common.ts', message: 'errors.field_country_code' },
  { module: 'order.ts', message: 'cart_token is required.' },
  { module: 'order.ts', message: 'errors.field_gift_cards_not_accepted' },
];

const pageScripts = () =>
  readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, text: readFileSync(path.join(assets, name), 'utf8') }));

describe("the built page's scripts", () => {
  it("build the answers' schemas and none of the requests'", () => {
    const scripts = pageScripts();
    // The answers' schemas are there (the order's redirect action, the authorization's token type)...
    const schemas = scripts.find((script) => script.name.startsWith('response-schemas-'));
    expect(schemas?.text).toContain('redirect');
    expect(schemas?.text).toContain('Bearer');
    for (const { module, message } of REQUEST_MESSAGES) {
      // ...each message is still a request schema's (so its absence below means something)...
      expect(readFileSync(path.join(projectRoot, 'src/contract', module), 'utf8')).toContain(message);
      // ...and no script of the page carries it.
      expect(scripts.filter((script) => script.text.includes(message)).map((script) => script.name)).toEqual(
        [],
      );
    }
  });
});

describe("the built page's entry script", () => {
  // V8 compiles every function of a file whose first line is this hint as the file streams in, off the main thread,
  // instead of on the main thread at each function's first call (vite.config.ts, compileHintOnEntry).
  const HINT = '//# allFunctionsCalledOnLoad';

  it('asks V8 to compile it whole as it loads, and only it', () => {
    const html = readFileSync(path.join(projectRoot, 'dist/client/index.html'), 'utf8');
    const entry = /<script type="module"[^>]*\bsrc="\/checkout\/assets\/([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const scripts = pageScripts();
    expect(scripts.find((script) => script.name === entry)?.text.split('\n', 1)[0]).toBe(HINT);
    // The chunks loaded later hold code that may never run: compiled as it is called.
    const hinted = scripts.filter((script) => script.text.includes(HINT)).map((script) => script.name);
    expect(hinted).toEqual([entry]);
  });
});

describe("the built page's styles", () => {
  const stylesheets = () =>
    readdirSync(assets)
      .filter((name) => name.endsWith('.css'))
      .map((name) => ({ name, text: readFileSync(path.join(assets, name), 'utf8') }));

  // The minifier merged a hand-written -webkit-backdrop-filter written after backdrop-filter into it and kept only
  // the prefixed one: Chromium, which reads only the standard property, showed the processing overlay unblurred.
  it('keep the standard property beside each -webkit- prefixed one', () => {
    const sheets = stylesheets();
    expect(sheets.length).toBeGreaterThan(0);
    const prefixed: string[] = [];
    const missing: string[] = [];
    for (const { name, text } of sheets) {
      for (const [, selector, body] of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
        const properties = new Set([...body!.matchAll(/(?:^|;)\s*([-a-z]+)\s*:/g)].map((match) => match[1]!));
        for (const property of properties) {
          if (!property.startsWith('-webkit-')) continue;
          prefixed.push(property);
          const standard = property.slice('-webkit-'.length);
          if (!properties.has(standard)) missing.push(`${name}: ${selector!.trim()} has ${property} only`);
        }
      }
    }
    // The overlay's blur is one of them (so the check above is not empty).
    expect(prefixed).toContain('-webkit-backdrop-filter');
    expect(missing).toEqual([]);
  });
});

describe("the built page's first load", () => {
  // What index.html references, as bench/bundle-size.ts counts it: the entry script and its preloaded chunks, gzip as
  // served (the precompressed sibling written at build time).
  const BUDGET_GZIP_BYTES = 100 * 1024;
  const html = () => readFileSync(path.join(projectRoot, 'dist/client/index.html'), 'utf8');
  const firstLoadScripts = () =>
    [...html().matchAll(/(?:src|href)="\/checkout\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
  const gzipSize = (name: string) => {
    const file = path.join(assets, name);
    return existsSync(`${file}.gz`)
      ? readFileSync(`${file}.gz`).length
      : gzipSync(readFileSync(file), { level: 9 }).length;
  };

  it('stays within its JavaScript budget', () => {
    const total = firstLoadScripts().reduce((sum, name) => sum + gzipSize(name), 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  // The card processors' adapters load when the payment step mounts the configured one (docs/payments.md): Stripe.js
  // and its loader only when Stripe is the processor.
  it("leaves the card processors' adapters to chunks of their own, loaded on demand", () => {
    const scripts = pageScripts();
    const first = new Set(firstLoadScripts());
    for (const adapter of ['stripe-processor-', 'test-processor-']) {
      const chunk = scripts.find((script) => script.name.startsWith(adapter));
      expect(chunk, adapter).toBeDefined();
      expect(first.has(chunk!.name)).toBe(false);
    }
    // Stripe's loader is in the chunks only the Stripe adapter loads: neither the first load nor the payment step.
    const withStripe = scripts.filter((script) => script.text.includes('js.stripe.com'));
    expect(withStripe.length).toBeGreaterThan(0);
    for (const script of withStripe) {
      expect(first.has(script.name)).toBe(false);
      expect(script.name).not.toMatch(/^(payment-step|checkout-view)-/);
    }
  });
});
