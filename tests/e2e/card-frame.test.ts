import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Frame, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/server/platform/clock.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { buildTestProcessorApp } from '../../src/server/platform/payments/test-processor/test-processor-app.js';
import {
  findChallenge,
  insertChallenge,
} from '../../src/server/platform/payments/test-processor/test-processor-repository.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { launchBrowser } from './browser.js';
import { readCatalogue } from '../../src/server/i18n/catalogue-files.js';

// The test processor's card frame on an origin of its own, framed by a page on another origin, in Debian's Chromium:
// the message protocol of docs/payments.md, the page adapter (src/client/.../test-processor.ts) and the 3-D Secure
// dialog. Uses the built frame (npm run build); the page here is a bare harness, not the checkout.

const projectRoot = path.resolve(import.meta.dirname, '../..');
const clientDir = path.join(projectRoot, 'dist/client');
const adapterPath = path.join(projectRoot, 'src/client/checkout/payment/processors/test-processor.ts');

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2.1 A/AA and best-practice findings in one frame, by rule id. */
async function axeViolations(frame: Frame): Promise<string[]> {
  // Evaluated through the DevTools protocol: the frame's CSP (script-src 'self') stays on for the frame itself.
  await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(async () => {
    const scope = globalThis as any;
    const result = await scope.axe.run(scope.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      // A frame's document is a part of the page, not a page: it has no landmarks or heading of its own to give.
      rules: { 'page-has-heading-one': { enabled: false }, region: { enabled: false } },
    });
    return (result.violations as any[]).map((violation) => `${violation.id}: ${violation.help}`);
  });
}

let database: TestDatabase;
let pageServer: Server;
let processor: FastifyInstance;
let browser: Browser;
let checkoutOrigin: string;
let processorOrigin: string;
let harness = { js: '', css: '' };

/** The adapter bundled for the harness page, exposed as window.createTestProcessor. */
async function bundleAdapter(): Promise<{ js: string; css: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-frame-harness-'));
  const entry = path.join(dir, 'harness.js');
  writeFileSync(
    entry,
    `import { createTestProcessor } from ${JSON.stringify(adapterPath)};\nwindow.createTestProcessor = createTestProcessor;\n`,
  );
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: dir,
    build: { write: false, minify: false, lib: { entry, formats: ['es'], fileName: 'harness' } },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((item) =>
    'output' in item ? item.output : [],
  );
  const js = outputs.find((file) => file.type === 'chunk');
  const css = outputs.find((file) => file.type === 'asset' && file.fileName.endsWith('.css'));
  return {
    js: js && 'code' in js ? js.code : '',
    css: css && 'source' in css ? String(css.source) : '',
  };
}

const RAW_PAGE = (origin: string) => `<!doctype html><html lang="en"><head><title>Raw</title></head><body>
<iframe id="frame" title="Card" src="${origin}/frame" style="width:100%;border:0"></iframe>
<script>
  window.__messages = [];
  const frame = document.getElementById('frame');
  window.addEventListener('message', (event) => {
    if (event.origin === ${JSON.stringify(origin)} && event.source === frame.contentWindow) window.__messages.push(event.data);
  });
  window.__send = (message) => frame.contentWindow.postMessage({ source: 'sc-checkout', ...message }, ${JSON.stringify(origin)});
</script></body></html>`;

const HARNESS_PAGE = `<!doctype html><html lang="en"><head><title>Harness</title>
<link rel="stylesheet" href="/harness.css"><script type="module" src="/harness.js"></script></head>
<body><main><h1>Pay</h1><div id="card"></div><button type="button" id="pay">Place order</button></main></body></html>`;

beforeAll(async () => {
  if (!existsSync(path.join(clientDir, 'card-frame', 'index.html'))) {
    throw new Error('dist/client/card-frame is missing: run npm run build first.');
  }
  database = await createTestDatabase();
  harness = await bundleAdapter();
  pageServer = createServer((request, response) => {
    const url = request.url ?? '/';
    if (url === '/harness.js') response.setHeader('content-type', 'text/javascript').end(harness.js);
    else if (url === '/harness.css') response.setHeader('content-type', 'text/css').end(harness.css);
    else if (url === '/raw') response.setHeader('content-type', 'text/html').end(RAW_PAGE(processorOrigin));
    else response.setHeader('content-type', 'text/html').end(HARNESS_PAGE);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  const pagePort = (pageServer.address() as { port: number }).port;
  checkoutOrigin = `http://127.0.0.1:${pagePort}`;
  // No processorOrigin: the processor takes its own from each request's Host, as in a bare `npm start`.
  processor = await buildTestProcessorApp({
    db: database.db,
    clock: systemClock,
    logger: createLogger({ level: 'warn' }),
    checkoutOrigin,
    clientDir,
  });
  await processor.listen({ port: 0, host: '127.0.0.1' });
  processorOrigin = `http://127.0.0.1:${(processor.server.address() as { port: number }).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await processor?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
  await database?.drop();
});

async function newPage(url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

const messages = (page: Page) => page.evaluate<any[]>('window.__messages');
const lastOf = async (page: Page, type: string) =>
  (await messages(page)).filter((m) => m.type === type).at(-1);

async function newChallenge(key: string): Promise<string> {
  await database.db.query(
    `INSERT INTO test_gateway_charges (idempotency_key, kind, amount, currency, status, reference)
     VALUES ($1, 'charge', 1000, 'USD', 'requires_action', $2)`,
    [key, `ch_${key}`],
  );
  return (await insertChallenge(database.db, key, new Date())).id;
}

describe('the card frame on its own origin', () => {
  it('talks to the page on another origin by messages only', async () => {
    const page = await newPage(`${checkoutOrigin}/raw`);
    await expect.poll(async () => (await lastOf(page, 'ready'))?.height).toBeGreaterThan(100);
    // The browser keeps the frame's document from the page's scripts.
    expect(await page.evaluate('document.getElementById("frame").contentDocument === null')).toBe(true);
    await page.evaluate('window.__send({ type: "init", testCards: [] })');

    const frame = page.frameLocator('#frame');
    const number = frame.getByLabel('Card number');
    await number.pressSequentially('4111111111111111');
    expect(await number.inputValue()).toBe('4111 1111 1111 1111');
    const icon = frame.locator('#card-brand-icon');
    await expect.poll(() => icon.evaluate((img: any) => img.naturalWidth as number)).toBeGreaterThan(0);
    expect(await lastOf(page, 'change')).toMatchObject({
      state: { brand: 'visa', complete: false, empty: false, error: null },
    });
    await frame.getByLabel('Expiry date (MM / YY)').pressSequentially('1230');
    expect(await frame.getByLabel('Expiry date (MM / YY)').inputValue()).toBe('12 / 30');
    await frame.getByLabel('Security code (CVV)').pressSequentially('123');
    // The frame's message about the last digit may still be on its way.
    await expect
      .poll(async () => (await lastOf(page, 'change'))?.state)
      .toEqual({ brand: 'visa', complete: true, empty: false, error: null });

    await page.evaluate('window.__send({ type: "tokenize", id: "t1" })');
    await expect.poll(() => lastOf(page, 'tokenized')).toMatchObject({ id: 't1', token: expect.any(String) });
    const token = (await lastOf(page, 'tokenized')).token as string;
    const { rows } = await database.db.query(
      'SELECT brand, last4 FROM test_processor_tokens WHERE token = $1',
      [token],
    );
    expect(rows).toEqual([{ brand: 'visa', last4: '1111' }]);
    // Nothing of the card went to the page.
    expect(JSON.stringify(await messages(page))).not.toMatch(/4111 ?1111|"123"/);
    await page.close();
  });

  it('is not shown in a page of any other origin', async () => {
    const page = await newPage(`http://localhost:${new URL(checkoutOrigin).port}/raw`);
    await page.waitForTimeout(1500);
    expect(await messages(page)).toEqual([]);
    await page.close();
  });
});

describe('the page adapter', () => {
  async function mount(page: Page, testCards: string[] = []) {
    await page.waitForFunction('typeof window.createTestProcessor === "function"');
    // The page's t in English, as the checkout hands it to its processor (its {name} placeholders filled).
    const english = { ...readCatalogue('payment', 'en'), ...readCatalogue('card', 'en') };
    await page.evaluate(
      `(async () => {
        const english = ${JSON.stringify(english)};
        window.t = (key, values = {}) => (english[key] ?? key).replace(/\\{(\\w+)\\}/g, (_, name) => String(values[name] ?? ''));
        window.states = [];
        window.fields = await window.createTestProcessor({ origin: ${JSON.stringify(processorOrigin)} }).mount(
          document.getElementById('card'),
          { testCards: ${JSON.stringify(testCards)}, onChange: (state) => window.states.push(state), amount: 1000, currency: 'USD', language: 'en', t: window.t },
        );
      })()`,
    );
  }

  it('mounts the fields, shows their messages and hands back a token', async () => {
    const page = await newPage(`${checkoutOrigin}/`);
    await mount(page, ['4242424242424242']);
    const iframe = page.getByTitle('Secure card payment fields');
    expect(await iframe.evaluate((element: any) => element.style.height as string)).toMatch(/^\d+px$/);
    const frame = page.frameLocator('iframe[title="Secure card payment fields"]');

    expect(await page.evaluate('window.fields.tokenize()')).toEqual({
      ok: false,
      message: 'Enter your card number.',
    });
    const number = frame.getByLabel('Card number');
    expect(await number.getAttribute('aria-invalid')).toBe('true');
    expect(await number.getAttribute('aria-describedby')).toContain('card-number-error');
    expect(await frame.locator('#card-number-error').textContent()).toBe('Enter your card number.');
    const cardFrame = page
      .frames()
      .find((item) => item.url() !== 'about:blank' && new URL(item.url()).pathname === '/frame');
    expect(await axeViolations(cardFrame!)).toEqual([]);

    // A message follows the value, and goes once it is fixed.
    await number.pressSequentially('4111');
    expect(await frame.locator('#card-number-error').textContent()).toBe(
      'This card number is too short or too long. Check it and try again.',
    );
    await page.evaluate('window.fields.fillTestCard("4242424242424242")');
    await expect.poll(() => number.inputValue()).toBe('4242 4242 4242 4242');
    await expect.poll(() => page.evaluate<string>('window.states.at(-1).brand')).toBe('testcard');
    expect(await number.getAttribute('aria-invalid')).toBeNull();

    await frame.getByLabel('Expiry date (MM / YY)').fill('04 / 29');
    await frame.getByLabel('Security code (CVV)').fill('123');
    const answer = await page.evaluate<any>('window.fields.tokenize()');
    expect(answer).toMatchObject({ ok: true, token: expect.stringMatching(/^tok_test_/) });
    const { rows } = await database.db.query('SELECT test_card FROM test_processor_tokens WHERE token = $1', [
      answer.token,
    ]);
    expect(rows).toEqual([{ test_card: true }]);
    await page.close();
  });

  it("checks a field when it loses focus, and a server's refusal shows on its field", async () => {
    const page = await newPage(`${checkoutOrigin}/`);
    await mount(page);
    const frame = page.frameLocator('iframe[title="Secure card payment fields"]');
    await frame.getByLabel('Card number').pressSequentially('3530111333300000');
    await frame.getByLabel('Card number').press('Tab');
    const refused = 'We accept Visa, Mastercard, Discover and American Express. Use one of those cards.';
    await expect
      .poll(() => page.evaluate<any>('window.states.at(-1)'))
      .toMatchObject({
        brand: 'other',
        error: refused,
      });
    // The keyboard moved on to the expiry, in the frame.
    expect(
      await frame
        .getByLabel('Expiry date (MM / YY)')
        .evaluate((el: any) => el === el.ownerDocument.activeElement),
    ).toBe(true);
    await expect.poll(() => frame.locator('#announcer').textContent()).toBe(`Card number: ${refused}`);
    await page.close();
  });

  it('shows the bank challenge in a dialog and goes on only once it is completed', async () => {
    const page = await newPage(`${checkoutOrigin}/`);
    await mount(page);
    const completed = await newChallenge('order_9_1_attempt_1');
    await page.evaluate(
      `void (window.auth = window.fields.authenticate({ type: 'challenge', url: ${JSON.stringify(`${processorOrigin}/challenge/${completed}`)} }, window.t))`,
    );
    const dialog = page.getByRole('dialog', { name: 'Confirm the payment with your bank' });
    await dialog.waitFor();
    expect(
      await dialog.evaluate((element: any) => element.contains(element.ownerDocument.activeElement)),
    ).toBe(true);
    const bank = page.frameLocator('dialog iframe');
    await bank.getByText('Your bank asks you to confirm this payment').waitFor();
    const bankFrame = page.frames().find((item) => item.url().includes('/challenge/'));
    expect(await axeViolations(bankFrame!)).toEqual([]);
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    expect(await page.evaluate('window.auth')).toEqual({ ok: true });
    expect(await dialog.count()).toBe(0);
    expect((await findChallenge(database.db, completed))?.status).toBe('succeeded');

    const escaped = await newChallenge('order_9_1_attempt_2');
    await page.evaluate(
      `void (window.auth = window.fields.authenticate({ type: 'challenge', url: ${JSON.stringify(`${processorOrigin}/challenge/${escaped}`)} }, window.t))`,
    );
    await bank.getByRole('button', { name: 'Fail authentication' }).focus();
    await page.keyboard.press('Escape');
    expect(await page.evaluate('window.auth')).toEqual({
      ok: false,
      message: 'Authentication was not completed. Nothing was charged; try again or use another card.',
    });
    expect((await findChallenge(database.db, escaped))?.status).toBe('pending');
    await page.close();
  });
});
