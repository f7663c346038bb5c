import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Generated bodies, headers, paths and query strings against every route of the router (from the OpenAPI document,
// which is generated from it) and the page and health routes, with valid credentials most of the time so the
// input reaches the handlers: never a 5xx, and no card number in any log line.
const RUNS_PER_ROUTE = 40;

let t: TestApp;
let store: Store;
let shopper: ShopperSession;
let cartToken: string;
let orderOfferId: number;

interface Operation {
  method: string;
  path: string;
  guard: 'merchant' | 'shopper' | 'csrf' | 'none';
  bodyFields: string[];
  /** the JSON Schema of the body, to generate bodies that are often nearly valid and so reach the handlers */
  bodySchema: unknown;
  queryFields: string[];
  hasBody: boolean;
}

let operations: Operation[] = [];

beforeAll(async () => {
  // The fuzzer's requests arrive through a trusted proxy, so its X-Forwarded-For values are read too.
  t = await createTestApp({ config: { trustedProxies: ['127.0.0.1'] } });
  store = await createStore(t.app, t.db);
  cartToken = await store.cart([
    { offer_id: store.offers.beans.id },
    { offer_id: store.offers.mug.id, is_gift: true },
  ]);
  shopper = await shopperSession(t.app, store.org.publicId);
  orderOfferId = (await shopper.get(`carts/${cartToken}`)).body.offers[0].order_offer_id;

  const doc = (await t.app.inject({ method: 'GET', url: '/checkout/api/docs' })).json();
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const security = JSON.stringify(op.security ?? []);
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        guard: security.includes('merchantKey')
          ? 'merchant'
          : security.includes('shopperToken')
            ? 'shopper'
            : security.includes('csrfToken')
              ? 'csrf'
              : 'none',
        bodyFields: Object.keys(bodySchema?.properties ?? {}),
        bodySchema,
        queryFields: (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
        hasBody: bodySchema !== undefined,
      });
    }
  }
  operations = [
    ...operations,
    {
      method: 'GET',
      path: '/checkout/{cart_token}',
      guard: 'none',
      bodyFields: [],
      bodySchema: undefined,
      queryFields: ['cypress'],
      hasBody: false,
    },
    {
      method: 'GET',
      path: '/checkout',
      guard: 'none',
      bodyFields: [],
      bodySchema: undefined,
      queryFields: ['cart_token', 'cypress'],
      hasBody: false,
    },
    {
      method: 'GET',
      path: '/healthz',
      guard: 'none',
      bodyFields: [],
      bodySchema: undefined,
      queryFields: [],
      hasBody: false,
    },
    {
      method: 'GET',
      path: '/readyz',
      guard: 'none',
      bodyFields: [],
      bodySchema: undefined,
      queryFields: [],
      hasBody: false,
    },
  ];
});

afterAll(async () => {
  await t.close();
});

/** A Luhn-valid card number of 13 to 19 digits. */
const cardNumber = fc
  .tuple(
    fc.integer({ min: 13, max: 19 }),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }),
  )
  .map(([length, digits]) => {
    const body = [3 + ((digits[0] ?? 0) % 4), ...digits.slice(1, length - 1)];
    let sum = 0;
    for (let i = 0; i < body.length; i++) {
      // Doubling every second digit from the right, counting the check digit as position 0.
      let digit = body[body.length - 1 - i] ?? 0;
      if (i % 2 === 0) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    return [...body, (10 - (sum % 10)) % 10].join('');
  });

/** Every card number written into a request, in the form written. */
const cardsSent = new Set<string>();

const writtenCard = fc
  .tuple(cardNumber, fc.constantFrom('plain', 'spaces', 'dashes'))
  .map(([digits, style]) => {
    const text =
      style === 'plain' ? digits : digits.replace(/(\d{4})(?=\d)/g, style === 'spaces' ? '$1 ' : '$1-');
    cardsSent.add(digits);
    cardsSent.add(text);
    return text;
  });

const nasty = fc.constantFrom(
  '__proto__',
  'constructor',
  'null',
  '',
  ' ',
  "' OR 1=1 --",
  '"; DROP TABLE carts; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\ud800',
  '💳',
  '1e400',
  '-1',
  '0',
  '99999999999999999999',
  'NaN',
  '__c__x',
  '__g__x',
);

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 3, arbitrary: nasty },
  { weight: 3, arbitrary: writtenCard },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.string({ maxLength: 8 }), writtenCard).map(([a, b]) => `${a} ${b} ${a}`),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 300, maxLength: 3000 }) },
);

const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    cardNumber.map(Number),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), nasty), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Values the app knows, by field name: a body built from them gets past lookups to the deeper code. */
function knownValue(name: string): fc.Arbitrary<unknown> | null {
  if (name === 'cart_token') return fc.constant(cartToken);
  if (name === 'order_offer_id' || name === 'id') return fc.constant(orderOfferId);
  if (name === 'offer_id') return fc.constant(store.offers.beans.id);
  if (name === 'card_number') return writtenCard;
  if (name.endsWith('_country')) return fc.constantFrom('US', 'GB', 'ZZ');
  if (name === 'organization') return fc.constant(store.org.publicId);
  return null;
}

/** A value shaped by a JSON Schema (types, constants, alternatives, required keys), with hostile strings. */
function fromSchema(schema: any, name: string, depth: number): fc.Arbitrary<unknown> {
  const shaped = ((): fc.Arbitrary<unknown> => {
    if (schema === undefined || schema === null || typeof schema !== 'object') return value;
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (alternatives)
      return fc.oneof(...alternatives.map((alternative) => fromSchema(alternative, name, depth)));
    switch (schema.type) {
      case 'string':
        return fc.oneof(
          { weight: 4, arbitrary: text.map((each) => each.slice(0, schema.maxLength ?? 80)) },
          { weight: 1, arbitrary: text },
        );
      case 'integer':
        return fc.oneof(fc.integer({ min: -2, max: 120 }), fc.integer());
      case 'number':
        return fc.oneof(fc.integer({ min: 0, max: 200 }), fc.double({ noNaN: true }));
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(fromSchema(schema.items, name, depth + 1), {
              maxLength: Math.min(schema.maxItems ?? 3, 3),
            });
      case 'object': {
        if (depth > 3) return fc.constant({});
        const properties = Object.entries((schema.properties ?? {}) as Record<string, unknown>);
        return fc.record(
          Object.fromEntries(
            properties.map(([key, property]) => [key, fromSchema(property, key, depth + 1)]),
          ),
          { requiredKeys: ((schema.required ?? []) as string[]).filter((key) => schema.properties?.[key]) },
        );
      }
      default:
        return value;
    }
  })();
  const known = knownValue(name);
  return known ? fc.oneof(shaped, known) : shaped;
}

function bodyFor(operation: Operation): fc.Arbitrary<{ payload: unknown; contentType: string | null }> {
  const fields = [
    ...operation.bodyFields,
    'card_number',
    'card_cvv',
    '_is_vrio_checkout',
    'ip_address',
    'extra',
  ];
  const asJson = (payload: unknown) => ({ payload, contentType: 'application/json' });
  return fc.oneof(
    { weight: 6, arbitrary: fromSchema(operation.bodySchema, '', 0).map(asJson) },
    { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 10 }).map(asJson) },
    { weight: 2, arbitrary: value.map(asJson) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          text,
          fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'x/y'),
        )
        .map(([raw, contentType]) => ({ payload: raw, contentType })),
    },
    { weight: 1, arbitrary: fc.constant({ payload: undefined, contentType: null }) },
  );
}

const pathValue = (name: string) =>
  fc.oneof(
    { weight: 3, arbitrary: text },
    {
      weight: 2,
      arbitrary: fc.constant(
        name === 'cart_token'
          ? cartToken
          : name === 'order_offer_id'
            ? String(orderOfferId)
            : String(store.offers.beans.id),
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 1e6 }).map(String) },
    { weight: 1, arbitrary: writtenCard },
  );

const headerText = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  writtenCard,
  fc.ipV4(),
  fc.tuple(writtenCard, fc.ipV4()).map(([card, ip]) => `${card}, ${ip}`),
);

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'x-forwarded-for',
    'x-forwarded-proto',
    'user-agent',
    'referer',
    'idempotency-key',
    'x-card',
    'cookie',
    'accept-language',
  ),
  headerText,
  { maxKeys: 4 },
);

function requestFor(operation: Operation) {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
  return fc
    .record({
      params: fc.tuple(...names.map(pathValue)),
      query: fc.dictionary(
        fc.oneof(fc.constantFrom(...operation.queryFields, 'cypress', 'card_number'), nasty),
        text,
        {
          maxKeys: 4,
        },
      ),
      body:
        operation.method === 'GET'
          ? fc.constant({ payload: undefined, contentType: null })
          : bodyFor(operation),
      headers: extraHeaders,
      credentials: fc.constantFrom('valid', 'valid', 'valid', 'valid', 'none', 'garbage'),
    })
    .map(({ params, query, body, headers, credentials }): InjectOptions => {
      let url = operation.path;
      names.forEach((name, index) => {
        // Lone surrogates cannot be percent-encoded; a client would send U+FFFD (as Buffer does).
        const wellFormed = Buffer.from(String(params[index]), 'utf8').toString('utf8');
        url = url.replace(`{${name}}`, encodeURIComponent(wellFormed));
      });
      const search = new URLSearchParams(query as Record<string, string>).toString();
      const auth: Record<string, string> = {};
      if (credentials === 'valid') {
        if (operation.guard === 'merchant') auth.authorization = `Bearer ${store.org.apiKey}`;
        if (operation.guard === 'shopper') auth.authorization = `Bearer ${shopper.accessToken}`;
        if (operation.guard === 'shopper' || operation.guard === 'csrf')
          auth['csrf-token'] = shopper.csrfToken;
      } else if (credentials === 'garbage') {
        auth.authorization = `Bearer ${[...cardsSent][0] ?? 'x'}`;
        auth['csrf-token'] = 'garbage';
      }
      const payload =
        body.payload === undefined || typeof body.payload === 'string'
          ? body.payload
          : JSON.stringify(body.payload);
      return {
        method: operation.method as InjectOptions['method'],
        url: search ? `${url}?${search}` : url,
        headers: { ...headers, ...auth, ...(body.contentType ? { 'content-type': body.contentType } : {}) },
        ...(payload === undefined ? {} : { payload: payload as string }),
      };
    });
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

describe('every route under generated input', () => {
  it('never answers 5xx, and never logs a card number', async () => {
    expect(operations.length).toBeGreaterThan(40);
    for (const guard of ['merchant', 'shopper', 'csrf', 'none'] as const) {
      expect(operations.some((operation) => operation.guard === guard)).toBe(true);
    }
    const statuses = new Map<number, number>();
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (request) => {
          const response = await t.app.inject(request);
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode >= 500) {
            throw new Error(
              `${operation.method} ${operation.path} answered ${response.statusCode}: ${response.body}`,
            );
          }
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
    // The inputs got past the guards to the handlers, and some were good enough to succeed.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(0);
    expect(cardsSent.size).toBeGreaterThan(100);

    const logs = t.logs.join('');
    for (const card of cardsSent) expect(logs).not.toContain(card);
    for (const line of t.logs) {
      // Any Luhn-valid run of 13-19 digits, apart from the timestamp every line starts with.
      const { time: _time, ...rest } = JSON.parse(line) as Record<string, unknown>;
      for (const match of JSON.stringify(rest).matchAll(/(?<!\d)\d{13,19}(?!\d)/g)) {
        expect(luhnValid(match[0]), `log line carries ${match[0]}: ${line}`).toBe(false);
      }
    }
  }, 120_000);
});
