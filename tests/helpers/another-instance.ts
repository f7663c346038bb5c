import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/server/platform/config.js';
import { createLogger } from '../../src/server/platform/logging.js';
import { besideTestProcessor, type TestApp } from './test-app.js';

/**
 * Another server instance on the same database and clock as `t`, as a second instance behind a load balancer runs:
 * its own secrets and settings, shared data. Close it when done (the database stays with `t`).
 */
export async function anotherInstance(
  t: TestApp,
  options: { tokenSecret?: string; previousSecret?: string | null; config?: Partial<Config> } = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    config: { ...t.config, ...options.config },
    db: t.db,
    clock: t.clock,
    logger: createLogger({ level: 'silent' }),
    tokenSecrets: { current: options.tokenSecret ?? t.tokenSecret, previous: options.previousSecret ?? null },
    clientDir: null,
  });
  await app.ready();
  await besideTestProcessor(app, { db: t.db, clock: t.clock, config: { ...t.config, ...options.config } });
  return app;
}
