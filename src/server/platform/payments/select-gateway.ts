import type { Logger } from 'pino';
import type { CardProcessorConfig } from '../../../contract/page-config.js';
import { systemClock, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Queryable } from '../db/database.js';
import type { PaymentGateway } from './gateway.js';
import { createPaypalGateway } from './paypal-gateway.js';
import { createStripeGateway } from './stripe-gateway.js';
import { createTestGateway } from './test-gateway.js';

export interface PaymentGateways {
  /** Card payments entered on the page. */
  card: PaymentGateway;
  /** Express (PayPal-style) payments, and rebills of the wallets they saved. */
  express: PaymentGateway;
}

export interface PaymentGatewayOptions {
  /** The database the test gateway keeps its ledger of charges in (test_gateway_charges). */
  db: Queryable;
  /** Where the test gateway's approval page lives; config.publicUrl when absent. */
  approvalBaseUrl?: string;
  fetch?: typeof fetch;
  clock?: Clock;
  timeoutMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * The gateways the configuration asks for. By default the built-in test gateway serves both cards and express
 * payments (one instance over one ledger of charges). With PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET set,
 * express payments go to PayPal.
 *
 * Cards go to Stripe when its keys are set (docs/payments.md, "Stripe"), else to the test gateway. (The PayPal
 * adapter can take cards through PayPal's advanced card processing, but that needs PayPal's approval of the merchant
 * and PCI SAQ D scope, so it is not switched on by the PayPal settings alone.)
 */
export function createPaymentGateways(
  config: Pick<Config, 'paypal' | 'publicUrl' | 'testProcessor'> & Partial<Pick<Config, 'stripe'>>,
  options: PaymentGatewayOptions,
): PaymentGateways {
  const test = createTestGateway({
    db: options.db,
    approvalBaseUrl: options.approvalBaseUrl ?? config.publicUrl,
    processorUrl: testProcessorUrl(config),
    clock: options.clock ?? systemClock,
  });
  const card =
    config.stripe === null || config.stripe === undefined
      ? test
      : createStripeGateway({
          secretKey: config.stripe.secretKey,
          fetch: options.fetch,
          timeoutMs: options.timeoutMs,
          logger: options.logger,
        });
  if (config.paypal === null) return { card, express: test };
  const paypal = createPaypalGateway({
    ...config.paypal,
    fetch: options.fetch,
    clock: options.clock,
    timeoutMs: options.timeoutMs,
    logger: options.logger,
  });
  return { card, express: paypal };
}

/** Which processor's card fields the page mounts (docs/payments.md): Stripe's when it is configured. */
export function cardProcessorForPage(
  config: Pick<Config, 'stripe' | 'testProcessor' | 'publicUrl'>,
): CardProcessorConfig {
  if (config.stripe) return { name: 'stripe', publishable_key: config.stripe.publishableKey };
  return { name: 'test', origin: new URL(testProcessorUrl(config)).origin };
}

/** Where the test processor's pages are: resolved by the server before anything is built (server.ts). */
export function testProcessorUrl(config: Pick<Config, 'testProcessor' | 'publicUrl'>): string {
  return config.testProcessor.url ?? `${new URL(config.publicUrl).protocol}//test-processor.invalid`;
}

/**
 * The gateway that can charge a stored payment method again (a subscription rebill), by the gateway name stored with
 * it (payment_methods.gateway): a PayPal vault id must go back to PayPal, a test token to the test gateway. Null when
 * that gateway is no longer configured; the caller records a failed attempt rather than guessing.
 */
export function gatewayForStoredMethod(
  gateways: PaymentGateways,
  gatewayName: string,
): PaymentGateway | null {
  if (gateways.express.name === gatewayName) return gateways.express;
  if (gateways.card.name === gatewayName) return gateways.card;
  return null;
}
