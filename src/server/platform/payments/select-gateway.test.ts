import { describe, expect, it } from 'vitest';
import { createPaymentGateways, gatewayForStoredMethod } from './select-gateway.js';

const publicUrl = 'https://pay.example.com';
// Choosing gateways and starting a test express payment read nothing from the database; any use is a bug.
const db = {
  query: () => Promise.reject(new Error('the database is not used to choose gateways')),
  exec: () => Promise.reject(new Error('the database is not used to choose gateways')),
};
const paypal = {
  clientId: 'AZselectClientId',
  clientSecret: 'EKselectSecret',
  apiBase: 'https://api-m.paypal.com',
};

const testProcessor = { port: 3001, url: 'http://127.0.0.1:3001' };

describe('createPaymentGateways', () => {
  it('uses the one built-in test gateway for cards and express payments by default', async () => {
    const gateways = createPaymentGateways({ paypal: null, publicUrl, testProcessor }, { db });
    expect(gateways.card.name).toBe('test');
    expect(gateways.express).toBe(gateways.card);
    const start = await gateways.express.startExpress({
      amount: 1000,
      currency: 'USD',
      paymentTokenId: 'pt_1',
      returnUrl: `${publicUrl}/return`,
      cancelUrl: `${publicUrl}/cancel`,
      idempotencyKey: 'k1',
      description: 'Order',
      storeForFuture: false,
    });
    expect(start).toMatchObject({
      status: 'created',
      approvalUrl: 'https://pay.example.com/checkout/api/test-gateway/approve/pt_1',
    });
  });

  it('puts the test approval page where the caller says the server listens', async () => {
    const gateways = createPaymentGateways(
      { paypal: null, publicUrl, testProcessor },
      { db, approvalBaseUrl: 'http://127.0.0.1:41234' },
    );
    const start = await gateways.express.startExpress({
      amount: 1000,
      currency: 'USD',
      paymentTokenId: 'pt_2',
      returnUrl: 'r',
      cancelUrl: 'c',
      idempotencyKey: 'k2',
      description: 'Order',
      storeForFuture: false,
    });
    expect(start).toMatchObject({
      approvalUrl: 'http://127.0.0.1:41234/checkout/api/test-gateway/approve/pt_2',
    });
  });

  it('sends cards to Stripe when its keys are set, through the fetch it is given', async () => {
    const urls: string[] = [];
    const fakeFetch = async (input: string | URL | Request): Promise<Response> => {
      urls.push(String(input));
      return new Response(JSON.stringify({ error: { type: 'api_error', message: 'down' } }), { status: 500 });
    };
    const stripe = { secretKey: 'sk_test_select', publishableKey: 'pk_test_select', webhookSecret: null };
    const gateways = createPaymentGateways(
      { paypal: null, publicUrl, testProcessor, stripe },
      { db, fetch: fakeFetch },
    );
    expect(gateways.card.name).toBe('stripe');
    expect(gateways.express.name).toBe('test');
    expect(gatewayForStoredMethod(gateways, 'stripe')).toBe(gateways.card);
    await expect(gateways.card.describeCardToken?.('pm_1')).rejects.toThrow();
    expect(urls).toEqual(['https://api.stripe.com/v1/payment_methods/pm_1']);
  });

  it('sends express payments to PayPal, with the configured credentials and base URL, when PayPal is configured', async () => {
    const requests: Array<{ url: string; authorization: string | null }> = [];
    const fakeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = String(input);
      requests.push({ url, authorization: new Headers(init?.headers).get('authorization') });
      if (url.endsWith('/v1/oauth2/token')) {
        return Response.json({ access_token: 'A21AAselect', token_type: 'Bearer', expires_in: 32400 });
      }
      return Response.json(
        {
          id: '9XY12345AB678901C',
          status: 'PAYER_ACTION_REQUIRED',
          links: [
            { href: 'https://www.paypal.com/checkoutnow?token=9XY12345AB678901C', rel: 'payer-action' },
          ],
        },
        { status: 200 },
      );
    };
    const gateways = createPaymentGateways(
      { paypal, publicUrl, testProcessor },
      { db, fetch: fakeFetch as typeof fetch },
    );
    expect(gateways.express.name).toBe('paypal');
    const start = await gateways.express.startExpress({
      amount: 1000,
      currency: 'USD',
      paymentTokenId: 'pt_3',
      returnUrl: `${publicUrl}/return`,
      cancelUrl: `${publicUrl}/cancel`,
      idempotencyKey: 'k3',
      description: 'Order',
      storeForFuture: false,
    });
    expect(start).toEqual({
      status: 'created',
      providerReference: '9XY12345AB678901C',
      approvalUrl: 'https://www.paypal.com/checkoutnow?token=9XY12345AB678901C',
    });
    expect(requests).toEqual([
      {
        url: 'https://api-m.paypal.com/v1/oauth2/token',
        authorization: `Basic ${Buffer.from('AZselectClientId:EKselectSecret').toString('base64')}`,
      },
      { url: 'https://api-m.paypal.com/v2/checkout/orders', authorization: 'Bearer A21AAselect' },
    ]);
  });

  it('keeps cards on the test gateway when PayPal is configured (no real card processor exists yet)', () => {
    const gateways = createPaymentGateways({ paypal, publicUrl, testProcessor }, { db });
    expect(gateways.card.name).toBe('test');
  });
});

describe('gatewayForStoredMethod', () => {
  it('rebills a PayPal vault id through PayPal and a test token through the test gateway', () => {
    const gateways = createPaymentGateways({ paypal, publicUrl, testProcessor }, { db });
    expect(gatewayForStoredMethod(gateways, 'paypal')).toBe(gateways.express);
    expect(gatewayForStoredMethod(gateways, 'test')).toBe(gateways.card);
  });

  it('finds no gateway for a method stored with one that is no longer configured', () => {
    const gateways = createPaymentGateways({ paypal: null, publicUrl, testProcessor }, { db });
    expect(gatewayForStoredMethod(gateways, 'paypal')).toBeNull();
    expect(gatewayForStoredMethod(gateways, 'test')).toBe(gateways.card);
  });
});
