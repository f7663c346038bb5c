import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { PaymentGateways } from './payments/select-gateway.js';
import type { AbuseLimits } from './security/abuse-limits.js';

/** What every route and service may use; built once by app.ts from injected parts. */
export interface AppContext {
  config: Config;
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Rate limits on authorize and order attempts, shared by every instance (PostgreSQL or Redis). */
  limits: AbuseLimits;
  /** Card and express payment gateways (the built-in test gateway unless PayPal is configured). */
  gateways: PaymentGateways;
}
