import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/server/platform/config.js';
import { systemClock } from '../../src/server/platform/clock.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { ensureDemoStore } from '../../src/server/modules/demo/demo-store.js';
import { buildTestProcessorApp } from '../../src/server/platform/payments/test-processor/test-processor-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { registerProcessor, testConfig } from './test-app.js';

export interface CheckoutServer {
  app: FastifyInstance;
  database: TestDatabase;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  /** the test processor's own origin (its card frame and challenge pages), http://127.0.0.1:OTHER_PORT */
  processorUrl: string;
  /** the demo organization's merchant key */
  apiKey: string;
  /** the configuration it runs with, and the secret its tokens (and subscribers' links) are signed with */
  config: Config;
  tokenSecret: string;
  /** the merchant API: GET/POST with the demo key */
  merchant(
    method: 'GET' | 'POST' | 'PATCH',
    pathname: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }>;
  /** a new demo cart (POST /carts) with these offers by item_id */
  newCart(
    lines: { item_id: string; quantity?: number; is_gift?: boolean }[],
    extra?: object,
  ): Promise<string>;
  close(): Promise<void>;
}

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** A port nobody listens on right now (another process could take it before us; then listen fails loudly). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The real app serving the built page (dist/client) on a free port, on a fresh migrated database (PostgreSQL when
 * TEST_DATABASE_URL is set, else PGlite) seeded with the demo store: what browser tests drive.
 */
export async function startCheckoutServer(overrides: Partial<Config> = {}): Promise<CheckoutServer> {
  const database = await createTestDatabase();
  const apiKey = `sk_test_${randomBytes(16).toString('hex')}`;
  // Links the server writes (the express approval page, its return, gift claims) must point at the real port, so
  // the port is chosen first.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // The card fields come from another origin, as server.ts serves them: a port of their own.
  const processorPort = await freePort();
  const processorUrl = `http://127.0.0.1:${processorPort}`;
  const config = testConfig({
    logLevel: 'warn',
    publicUrl: baseUrl,
    testProcessor: { port: processorPort, url: processorUrl },
    ...overrides,
  });
  await ensureDemoStore(database.db, { apiKey, publicUrl: baseUrl, now: systemClock.now() });
  const tokenSecret = randomBytes(32).toString('hex');
  const app = await buildApp({
    config,
    db: database.db,
    logger: createLogger({ level: 'warn' }),
    tokenSecrets: { current: tokenSecret, previous: null },
    clientDir: path.join(projectRoot, 'dist/client'),
  });
  await app.listen({ port, host: '127.0.0.1' });
  const processor = await buildTestProcessorApp({
    db: database.db,
    clock: systemClock,
    logger: createLogger({ level: 'warn' }),
    checkoutOrigin: baseUrl,
    processorOrigin: processorUrl,
    clientDir: path.join(projectRoot, 'dist/client'),
  });
  await processor.listen({ port: processorPort, host: '127.0.0.1' });
  registerProcessor(app, processor, processorUrl);

  const merchant: CheckoutServer['merchant'] = async (method, pathname, body) => {
    const response = await fetch(`${baseUrl}/checkout/api/merchant${pathname}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  let offers: { id: number; item_id: string }[] | null = null;
  const newCart: CheckoutServer['newCart'] = async (lines, extra = {}) => {
    offers ??=
      ((await merchant('GET', '/offers?limit=100')).body.data as { id: number; item_id: string }[]) ?? [];
    const body = {
      offers: lines.map((line) => {
        const offer = offers?.find((candidate) => candidate.item_id === line.item_id);
        if (!offer) throw new Error(`no demo offer ${line.item_id}`);
        return {
          offer_id: offer.id,
          quantity: line.quantity ?? 1,
          ...(line.is_gift ? { is_gift: true } : {}),
        };
      }),
      ...extra,
    };
    const response = await merchant('POST', '/carts', body);
    if (response.status !== 201)
      throw new Error(`POST /carts: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.cart_token as string;
  };

  return {
    app,
    database,
    baseUrl,
    processorUrl,
    apiKey,
    config,
    tokenSecret,
    merchant,
    newCart,
    async close() {
      await app.close();
      await processor.close();
      await database.drop();
    },
  };
}
