import { afterEach, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKENS,
  BASIC,
  CAPTURE_PATH,
  cardCharge,
  CLIENT_SECRET,
  confirmedTotal,
  ORDER_PATH,
  type Scripted,
  sentRequests,
  setup,
  type Step,
  verifyReplays,
  withoutLogStamps,
} from './testing/paypal-replay.js';

// The PayPal adapter on every failure path: card data, credentials and what PayPal echoed back never reach the
// result or the logs.

afterEach(verifyReplays);

describe('card data and credentials never leave the charge call', () => {
  const NUMBER = '4012888888881881';
  const CVV = '846';
  const ORDERS = '/v2/checkout/orders';
  const echo = (status: number, extra: Record<string, unknown> = {}): Scripted => ({
    method: 'POST',
    path: ORDERS,
    status,
    // Some answers quote the request: a field's value, a description, or the whole body.
    text: JSON.stringify({
      name: status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'INVALID_REQUEST',
      message: `Request ${NUMBER} ${CVV} could not be processed`,
      debug_id: 'abc0123def456',
      details: [
        {
          field: '/payment_source/card/number',
          value: NUMBER,
          location: 'body',
          issue: 'INVALID_PARAMETER_VALUE',
          description: `Card ${NUMBER} with security code ${CVV} is invalid`,
        },
        { field: '/payment_source/card/security_code', value: CVV, issue: 'INVALID_SECURITY_CODE_LENGTH' },
      ],
      ...extra,
    }),
  });
  const declinedCapture = (responseCode: string): Scripted => ({
    method: 'POST',
    path: ORDERS,
    status: 201,
    text: JSON.stringify({
      id: '3XB80960XN551094F',
      status: 'COMPLETED',
      payment_source: { card: { number: NUMBER, security_code: CVV, last_digits: '1881' } },
      purchase_units: [
        {
          payments: {
            captures: [
              {
                id: '33U97269RT3112322',
                status: 'DECLINED',
                processor_response: { response_code: responseCode },
              },
            ],
          },
        },
      ],
    }),
  });

  const failurePaths: Array<{ name: string; steps: Step[] }> = [
    {
      name: 'token call unreachable',
      steps: [{ method: 'POST', path: '/v1/oauth2/token', fail: 'network' }],
    },
    { name: 'token call times out', steps: [{ method: 'POST', path: '/v1/oauth2/token', fail: 'hang' }] },
    { name: 'credentials refused', steps: ['token-invalid-client'] },
    {
      name: 'token call 503',
      steps: [{ method: 'POST', path: '/v1/oauth2/token', status: 503, text: 'busy' }],
    },
    { name: 'charge unreachable', steps: ['token', { method: 'POST', path: ORDERS, fail: 'network' }] },
    { name: 'charge times out', steps: ['token', { method: 'POST', path: ORDERS, fail: 'hang' }] },
    { name: 'validation error quoting the card', steps: ['token', echo(400)] },
    { name: 'unprocessable quoting the card', steps: ['token', echo(422)] },
    { name: '500 quoting the card', steps: ['token', echo(500)] },
    {
      name: 'forbidden, quoting the card in an issue PayPal does not relate to the payer',
      steps: [
        'token',
        echo(403, {
          name: 'NOT_AUTHORIZED',
          details: [{ issue: 'PERMISSION_DENIED', description: `No permission for card ${NUMBER} / ${CVV}` }],
        }),
      ],
    },
    {
      name: 'unprocessable for a reason of ours, quoting the card',
      steps: [
        'token',
        echo(422, {
          details: [
            { issue: 'CURRENCY_NOT_SUPPORTED', field: '/purchase_units/0/amount', value: `${NUMBER} ${CVV}` },
          ],
        }),
      ],
    },
    {
      name: 'order answered without a capture, quoting the card',
      steps: [
        'token',
        {
          method: 'POST',
          path: ORDERS,
          status: 201,
          text: JSON.stringify({
            id: '1AB23456CD789012E',
            status: 'CREATED',
            payment_source: { card: { number: NUMBER, security_code: CVV } },
          }),
        },
      ],
    },
    { name: 'rate limited', steps: ['token', echo(429, { name: 'RATE_LIMIT_REACHED' })] },
    { name: 'declined for insufficient funds', steps: ['token', declinedCapture('5120')] },
    { name: 'declined as suspected fraud', steps: ['token', declinedCapture('9500')] },
    { name: 'declined for a wrong CVV', steps: ['token', declinedCapture('00N7')] },
    {
      name: 'non-JSON answer quoting the card',
      steps: ['token', { method: 'POST', path: ORDERS, status: 502, text: `<html>${NUMBER} ${CVV}</html>` }],
    },
    {
      name: 'unreadable success quoting the card',
      steps: ['token', { method: 'POST', path: ORDERS, status: 201, text: `{"id": "${NUMBER}", ${CVV}` }],
    },
    {
      name: 'order needing 3-D Secure',
      steps: [
        'token',
        {
          method: 'POST',
          path: ORDERS,
          status: 201,
          text: JSON.stringify({ id: '1AB23456CD789012E', status: 'PAYER_ACTION_REQUIRED', links: [] }),
        },
      ],
    },
    {
      name: 'token refused twice',
      steps: [
        'token',
        { method: 'POST', path: ORDERS, status: 401, text: '{"error":"invalid_token"}' },
        'token-second',
        { method: 'POST', path: ORDERS, status: 401, text: '{"error":"invalid_token"}' },
      ],
    },
  ];

  const amountUpdateFailures: Array<{ name: string; steps: Step[] }> = [
    { name: 'update refused', steps: ['token', 'express-patch-amount-change-not-allowed'] },
    {
      name: 'update refused for the merchant account',
      steps: ['token', 'express-patch-payee-account-restricted'],
    },
    { name: 'update answered 500', steps: ['token', 'express-patch-server-error'] },
    {
      name: 'update refused, quoting the request and the token',
      steps: [
        'token',
        {
          method: 'PATCH',
          path: ORDER_PATH,
          status: 400,
          text: JSON.stringify({
            name: 'INVALID_REQUEST',
            message: `Bearer ${ACCESS_TOKENS[0]} could not patch ana.silva@personal.example.com`,
            debug_id: 'abc0123def456',
            details: [
              {
                field: "/purchase_units/@reference_id=='default'/amount/value",
                value: 'ana.silva@personal.example.com',
                issue: 'INVALID_PARAMETER_SYNTAX',
                description: `Token ${ACCESS_TOKENS[0]} is not a value`,
              },
            ],
          }),
        },
      ],
    },
    {
      name: 'update answered 200 with something unreadable',
      steps: ['token', { method: 'PATCH', path: ORDER_PATH, status: 200, text: `<html>${ACCESS_TOKENS[0]}` }],
    },
    {
      name: 'token refused twice on the update',
      steps: [
        'token',
        { method: 'PATCH', path: ORDER_PATH, status: 401, text: '{"error":"invalid_token"}' },
        'token-second',
        { method: 'PATCH', path: ORDER_PATH, status: 401, text: '{"error":"invalid_token"}' },
      ],
    },
  ];

  it.each(amountUpdateFailures)(
    'keeps credentials and what PayPal echoed out of the result and the logs, and captures nothing: $name',
    async ({ steps }) => {
      const { gateway, logLines, recording } = setup(steps);
      const result = await gateway.completeExpress(confirmedTotal);
      expect(result).toMatchObject({ status: expect.stringMatching(/^(declined|error)$/) });
      expect(sentRequests(recording).some((sent) => sent.path === CAPTURE_PATH)).toBe(false);
      const seen = [JSON.stringify(result), ...withoutLogStamps(logLines)].join('\n');
      for (const secret of [
        CLIENT_SECRET,
        BASIC.slice(6),
        ...ACCESS_TOKENS,
        'ana.silva@personal.example.com',
        'The amount specified is different',
        'The merchant account is restricted',
      ]) {
        expect(seen).not.toContain(secret);
      }
    },
  );

  it.each(failurePaths)(
    'keeps the card data PayPal echoed out of the result and the logs: $name',
    async ({ steps }) => {
      const { gateway, logLines, recording } = setup(steps);
      const charge = cardCharge();
      let thrown: unknown;
      let result: unknown;
      try {
        result = await gateway.charge(charge);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeUndefined();
      expect(result).toMatchObject({ status: expect.stringMatching(/^(declined|error)$/) });
      // What PayPal echoed did reach the adapter, so the check below is not vacuous.
      if (steps.length > 1) expect(recording.sent.length).toBeGreaterThan(0);

      const seen = [JSON.stringify(result), ...withoutLogStamps(logLines)].join('\n');
      for (const secret of [NUMBER, CVV, '4012 8888', CLIENT_SECRET, BASIC.slice(6), ...ACCESS_TOKENS]) {
        expect(seen).not.toContain(secret);
      }
    },
  );
});
