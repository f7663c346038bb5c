import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { ManualClock, type Clock } from '../../src/server/platform/clock.js';
import { buildTestProcessorApp } from '../../src/server/platform/payments/test-processor/test-processor-app.js';
import { parseConfig, type Config } from '../../src/server/platform/config.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { createLogger } from '../../src/server/platform/logging.js';
import type { PaymentGateways } from '../../src/server/platform/payments/select-gateway.js';
import {
  createOrganization,
  type NewOrganization,
} from '../../src/server/modules/organizations/organization-service.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { createTokenService } from '../../src/server/platform/security/tokens.js';
import {
  createSubscriberLinks,
  type SubscriberLinks,
} from '../../src/server/modules/subscriber/subscriber-link.js';

export const TEST_PUBLIC_URL = 'http://checkout.test';
/** The test processor's own origin beside the checkout (docs/payments.md). */
export const TEST_PROCESSOR_URL = 'http://processor.test';

export function testConfig(overrides: Partial<Config> = {}): Config {
  const result = parseConfig({
    PUBLIC_URL: TEST_PUBLIC_URL,
    TEST_PROCESSOR_URL,
    LOG_LEVEL: 'info',
    SEED_DEMO: 'false',
  });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return { ...result.config, dataDir: mkdtempSync(path.join(tmpdir(), 'sc-test-')), ...overrides };
}

const processors = new WeakMap<FastifyInstance, { app: FastifyInstance; origin: string }>();

/** The test processor app serving beside a checkout app made here, and its origin (its card frame's). */
export function processorOf(app: FastifyInstance): FastifyInstance | undefined {
  return processors.get(app)?.app;
}

export function processorOriginOf(app: FastifyInstance): string | undefined {
  return processors.get(app)?.origin;
}

/** Says which test processor app serves beside a checkout app (one made elsewhere, as the browser tests' is). */
export function registerProcessor(app: FastifyInstance, processor: FastifyInstance, origin: string): void {
  processors.set(app, { app: processor, origin: new URL(origin).origin });
}

/** The test processor app for a checkout app on `db`, as server.ts runs it on its own port. */
export async function besideTestProcessor(
  app: FastifyInstance,
  input: { db: Database; clock: Clock; config: Config },
): Promise<FastifyInstance> {
  const processor = await buildTestProcessorApp({
    db: input.db,
    clock: input.clock,
    logger: createLogger({ level: 'silent' }),
    checkoutOrigin: new URL(input.config.publicUrl).origin,
    processorOrigin: input.config.testProcessor.url ?? TEST_PROCESSOR_URL,
    clientDir: null,
  });
  await processor.ready();
  // Served by inject only (no socket): nothing to close beyond what the app's own close leaves behind.
  registerProcessor(app, processor, input.config.testProcessor.url ?? TEST_PROCESSOR_URL);
  return processor;
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  database: TestDatabase;
  clock: ManualClock;
  config: Config;
  /** every JSON log line the app wrote */
  logs: string[];
  tokenSecret: string;
  close(): Promise<void>;
}

/** The real app on a fresh migrated database, with a controllable clock and captured logs. */
export async function createTestApp(
  options: {
    config?: Partial<Config>;
    tokenSecret?: string;
    previousSecret?: string;
    database?: TestDatabase;
    /** the app's payment gateways, made on its database and configuration (Stripe on a replaying fetch) */
    gateways?: (db: Database, config: Config) => PaymentGateways;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const clock = new ManualClock();
  const config = testConfig(options.config);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const tokenSecret = options.tokenSecret ?? randomBytes(32).toString('hex');
  const app = await buildApp({
    config,
    db: database.db,
    clock,
    logger: createLogger({ level: 'info', stream }),
    tokenSecrets: { current: tokenSecret, previous: options.previousSecret ?? null },
    clientDir: null,
    ...(options.gateways ? { gateways: options.gateways(database.db, config) } : {}),
  });
  await app.ready();
  await besideTestProcessor(app, { db: database.db, clock, config });
  return {
    app,
    db: database.db,
    database,
    clock,
    config,
    logs,
    tokenSecret,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

let organizationCounter = 0;

/** A new organization with its merchant key; each test makes its own so tests in a file never share data. */
export async function createTestOrganization(
  db: Database,
  input: Partial<NewOrganization> = {},
): Promise<{ id: number; publicId: string; apiKey: string }> {
  organizationCounter += 1;
  const publicId =
    input.publicId ?? `org-${process.pid}-${organizationCounter}-${randomBytes(3).toString('hex')}`;
  const { organization, apiKey } = await createOrganization(db, {
    name: `Store ${organizationCounter}`,
    ...input,
    publicId,
  });
  return { id: organization.id, publicId: organization.public_id, apiKey };
}

export interface JsonResponse<T = any> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
}

function toJson<T>(response: LightMyRequestResponse): JsonResponse<T> {
  const text = response.body;
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.statusCode, body: body as T, headers: response.headers };
}

/** A merchant's client: every call carries the organization's key. */
export function merchantClient(app: FastifyInstance, apiKey: string) {
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    toJson<any>(
      await app.inject({
        method,
        url: `/checkout/api/merchant${url}`,
        headers: { authorization: `Bearer ${apiKey}` },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
    );
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload: unknown) => call('POST', url, payload),
    patch: (url: string, payload: unknown) => call('PATCH', url, payload),
  };
}

export async function injectJson(app: FastifyInstance, request: InjectOptions): Promise<JsonResponse> {
  return toJson<any>(await app.inject(request));
}

/** The self-service links a test app's server would put in its emails (its secret, its clock, its address). */
export function subscriberLinksOf(t: Pick<TestApp, 'tokenSecret' | 'clock' | 'config'>): SubscriberLinks {
  return createSubscriberLinks(
    createTokenService({ current: t.tokenSecret }, t.clock),
    t.config.publicUrl,
    () => t.clock.now(),
  );
}
