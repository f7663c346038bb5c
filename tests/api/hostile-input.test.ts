import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/platform/db/database.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import {
  createTestApp,
  createTestOrganization,
  injectJson,
  type JsonResponse,
  type TestApp,
} from '../helpers/test-app.js';

let t: TestApp;
let store: Store;
let shopper: ShopperSession;
let cartToken: string;

beforeAll(async () => {
  t = await createTestApp();
  store = await createStore(t.app, t.db);
  cartToken = await store.cart([{ offer_id: store.offers.beans.id }]);
  shopper = await shopperSession(t.app, store.org.publicId);
});

afterAll(async () => {
  await t.close();
});

/** Row counts of every table the app writes (rate-limit events aside): "nothing written" means none moved. */
async function rowCounts(db: Database): Promise<Record<string, number>> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('schema_migrations', 'rate_limit_events')
      ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of rows) {
    const result = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    counts[table] = result.rows[0]?.n ?? -1;
  }
  return counts;
}

function expectErrorShape(response: JsonResponse, status: number, code: string, label: string) {
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(status);
  expect(response.headers['content-type'], label).toMatch(/^application\/json/);
  const body = response.body as Record<string, unknown>;
  expect(
    Object.keys(body).filter((key) => !['status', 'code', 'message', 'fields'].includes(key)),
    label,
  ).toEqual([]);
  expect(body.status, label).toBe(status);
  expect(body.code, label).toBe(code);
  expect(typeof body.message, label).toBe('string');
  expect((body.message as string).length, label).toBeGreaterThan(10);
  expect(JSON.stringify(body), label).not.toMatch(/at .+\.(ts|js):\d+|SELECT|INSERT|FST_|Error:/);
}

const merchant = () => ({ authorization: `Bearer ${store.org.apiKey}` });
const shopperHeaders = () => ({
  authorization: `Bearer ${shopper.accessToken}`,
  'csrf-token': shopper.csrfToken,
});
const json = { 'content-type': 'application/json' };

interface Case {
  label: string;
  request: () => InjectOptions;
  status: number;
  code: string;
  message?: string;
  fields?: Record<string, string>;
}

const offerUrl = '/checkout/api/merchant/offers';
const discountUrl = () => `/checkout/api/vrio/carts/${cartToken}/discount_code`;
const nested = (depth: number) => `{"offer_name":${'['.repeat(depth)}${']'.repeat(depth)}}`;

const cases: Case[] = [
  {
    label: 'malformed JSON',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload: '{"offer_name":',
    }),
    status: 400,
    code: 'invalid_json',
    message: 'The request body is not valid JSON.',
  },
  {
    label: 'trailing garbage after JSON',
    request: () => ({
      method: 'PUT',
      url: discountUrl(),
      headers: { ...shopperHeaders(), ...json },
      payload: '{}{}',
    }),
    status: 400,
    code: 'invalid_json',
  },
  {
    label: '__proto__ key',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload: '{"offer_name":"x","item_name":"x","price":1,"__proto__":{"polluted":true}}',
    }),
    status: 400,
    code: 'invalid_json',
    message: 'The request body contains a forbidden key (__proto__ or constructor.prototype).',
  },
  {
    label: 'constructor.prototype key, nested',
    request: () => ({
      method: 'PUT',
      url: discountUrl(),
      headers: { ...shopperHeaders(), ...json },
      payload: '{"discount_code":"X","a":{"constructor":{"prototype":{"polluted":true}}}}',
    }),
    status: 400,
    code: 'invalid_json',
  },
  {
    label: 'oversized body',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: merchant(),
      payload: { offer_name: 'x'.repeat(70_000), item_name: 'x', price: 1 },
    }),
    status: 413,
    code: 'body_too_large',
    message: 'The request body is larger than 64 KB.',
  },
  {
    label: 'text/plain body',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), 'content-type': 'text/plain' },
      payload: '{"offer_name":"x"}',
    }),
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send the body as application/json.',
  },
  {
    label: 'form body',
    request: () => ({
      method: 'PUT',
      url: discountUrl(),
      headers: { ...shopperHeaders(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'discount_code=WELCOME10',
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    label: 'JSON declared in another charset',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), 'content-type': 'application/json; charset=utf-16' },
      payload: '{}',
    }),
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send the body as UTF-8 encoded JSON.',
  },
  {
    label: 'invalid UTF-8',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload: Buffer.concat([
        Buffer.from('{"offer_name":"'),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('","item_name":"x","price":1}'),
      ]),
    }),
    status: 400,
    code: 'invalid_encoding',
    message: 'The request body is not valid UTF-8 text.',
  },
  {
    label: 'deeply nested JSON',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload: nested(20_000),
    }),
    status: 400,
    code: 'invalid_json',
    message: 'The request body nests more than 32 levels deep.',
  },
  {
    label: 'empty JSON body',
    request: () => ({ method: 'POST', url: offerUrl, headers: { ...merchant(), ...json }, payload: '' }),
    status: 400,
    code: 'empty_body',
  },
  {
    label: 'wrong types',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: merchant(),
      payload: { offer_name: 42, item_name: ['x'], price: '12.50' },
    }),
    status: 422,
    code: 'validation_failed',
    fields: { offer_name: 'Must be a string.', item_name: 'Must be a string.', price: 'Must be a number.' },
  },
  {
    label: 'unexpected fields',
    request: () => ({
      method: 'PUT',
      url: discountUrl(),
      headers: shopperHeaders(),
      payload: { discount_code: 'WELCOME10', total: 0, is_admin: true },
    }),
    status: 422,
    code: 'validation_failed',
    fields: { total: 'This field is not expected here.', is_admin: 'This field is not expected here.' },
  },
  {
    label: 'a JSON array instead of an object',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload: '[1,2,3]',
    }),
    status: 422,
    code: 'validation_failed',
  },
  {
    label: 'huge string',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: merchant(),
      payload: { offer_name: 'x'.repeat(60_000), item_name: 'x', price: 1 },
    }),
    status: 422,
    code: 'validation_failed',
  },
  {
    label: 'huge array',
    request: () => ({
      method: 'POST',
      url: '/checkout/api/merchant/carts',
      headers: merchant(),
      payload: { offers: Array.from({ length: 1000 }, () => ({ offer_id: store.offers.beans.id })) },
    }),
    status: 422,
    code: 'validation_failed',
  },
  {
    label: 'numbers beyond the safe range',
    request: () => ({
      method: 'PUT',
      url: `/checkout/api/vrio/carts/${cartToken}/quantity`,
      headers: { ...shopperHeaders(), ...json },
      payload: '{"id":1e400,"quantity":99999999999999999999}',
    }),
    status: 422,
    code: 'validation_failed',
  },
  {
    label: 'query naming __proto__ and constructor',
    request: () => ({ method: 'GET', url: `${offerUrl}?__proto__=1&constructor=2`, headers: merchant() }),
    status: 422,
    code: 'validation_failed',
    // Parsed, so that "__proto__" is a plain key here too.
    fields: JSON.parse(
      '{"__proto__":"This field is not expected here.","constructor":"This field is not expected here."}',
    ),
  },
  {
    label: 'a repeated query parameter',
    request: () => ({ method: 'GET', url: `${offerUrl}?limit=1&limit=2`, headers: merchant() }),
    status: 422,
    code: 'validation_failed',
  },
  ...['abc', '-1', '1e3', '0x10', '99999999999999999999', '1.5', '%20'].map((id): Case => ({
    label: `path id ${id}`,
    request: () => ({ method: 'GET', url: `${offerUrl}/${id}`, headers: merchant() }),
    status: 404,
    code: 'not_found',
    message: 'Nothing was found at this address.',
  })),
  {
    label: 'a NUL character in a JSON string',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload: '{"offer_name":"Tea\\u0000","item_name":"Tea","price":1}',
    }),
    status: 400,
    code: 'invalid_characters',
    message: 'The request contains a NUL character (\\u0000 or %00), which no field accepts.',
  },
  {
    label: 'half of a surrogate pair in a JSON string stored as jsonb (item options)',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload:
        '{"offer_name":"Tea","item_name":"Tea","item_options":[{"name":"\\ud800","value":"x"}],"price":0}',
    }),
    status: 400,
    code: 'invalid_characters',
    message:
      'The request contains half of a UTF-16 surrogate pair (such as \\ud800), which is not a character. Send the text as well-formed Unicode.',
  },
  {
    label: 'half of a surrogate pair in a JSON string stored as text',
    request: () => ({
      method: 'POST',
      url: offerUrl,
      headers: { ...merchant(), ...json },
      payload: '{"offer_name":"Tea\\udc00","item_name":"Tea","price":1}',
    }),
    status: 400,
    code: 'invalid_characters',
  },
  {
    label: 'a NUL character in the path',
    request: () => ({ method: 'GET', url: `/checkout/api/vrio/carts/abc%00def`, headers: shopperHeaders() }),
    status: 400,
    code: 'invalid_characters',
  },
  {
    label: 'a NUL character in the query',
    request: () => ({
      method: 'GET',
      url: `/checkout/api/vrio/carts/${cartToken}/preview?ship_country=US&ship_state=T%00X&version=1`,
      headers: shopperHeaders(),
    }),
    status: 400,
    code: 'invalid_characters',
  },
  {
    label: 'a broken %-escape in the path',
    request: () => ({ method: 'GET', url: `/checkout/api/vrio/carts/%E0%A4%A`, headers: shopperHeaders() }),
    status: 400,
    code: 'invalid_url',
  },
  {
    label: 'an overlong path parameter',
    request: () => ({
      method: 'GET',
      url: `/checkout/api/vrio/carts/${'a'.repeat(500)}`,
      headers: shopperHeaders(),
    }),
    status: 414,
    code: 'url_too_long',
  },
];

describe('hostile input', () => {
  it.each(cases)(
    'answers $label with $status in the one error shape and writes nothing',
    async (testCase) => {
      const before = await rowCounts(t.db);
      const response = await injectJson(t.app, testCase.request());
      expectErrorShape(response, testCase.status, testCase.code, testCase.label);
      if (testCase.message) expect(response.body.message).toBe(testCase.message);
      if (testCase.fields) expect(response.body.fields).toEqual(testCase.fields);
      expect(await rowCounts(t.db)).toEqual(before);
    },
  );

  it('leaves Object.prototype alone whatever the bodies and queries said', async () => {
    for (const testCase of cases.filter((each) => /proto/.test(each.label))) {
      await injectJson(t.app, testCase.request());
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('answers the same valid request normally, so the refusals above are about the input', async () => {
    const created = await injectJson(t.app, {
      method: 'POST',
      url: offerUrl,
      headers: merchant(),
      payload: { offer_name: 'Tea', item_name: 'Tea', price: 4.5 },
    });
    expect(created.status).toBe(201);
    const applied = await injectJson(t.app, {
      method: 'PUT',
      url: discountUrl(),
      headers: shopperHeaders(),
      payload: { discount_code: 'WELCOME10', _is_vrio_checkout: 1, ip_address: '81.2.69.160' },
    });
    expect(applied.status).toBe(200);
  });
});

describe('an unexpected failure', () => {
  // These build a database of their own to break: give them time on a busy machine.
  it('answers 500 without a stack or SQL, and logs the error', { timeout: 60_000 }, async () => {
    const broken = await createTestApp();
    try {
      const brokenOrg = await createTestOrganization(broken.db);
      // A table gone from under the app: the next query fails with an SQL error.
      await broken.db.exec('DROP TABLE offers CASCADE');
      const response = await injectJson(broken.app, {
        method: 'GET',
        url: '/checkout/api/merchant/offers',
        headers: { authorization: `Bearer ${brokenOrg.apiKey}` },
      });
      expect(response.body).toEqual({
        status: 500,
        code: 'internal_error',
        message: 'Something went wrong on our side. Nothing was charged; please try again.',
      });
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      const errorLine = broken.logs
        .map((line) => JSON.parse(line))
        .find((line) => line.msg === 'unhandled error');
      expect(errorLine?.level).toBe(50);
      expect(errorLine?.err?.message).toMatch(/relation "offers" does not exist/);
      expect(errorLine?.err?.stack).toBeDefined();
    } finally {
      await broken.close();
    }
  });

  it('answers 500 without internals when the database is gone', { timeout: 60_000 }, async () => {
    const broken = await createTestApp();
    const brokenOrg = await createTestOrganization(broken.db);
    await broken.database.drop();
    try {
      const response = await injectJson(broken.app, {
        method: 'GET',
        url: '/checkout/api/merchant/offers',
        headers: { authorization: `Bearer ${brokenOrg.apiKey}` },
      });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        status: 500,
        code: 'internal_error',
        message: 'Something went wrong on our side. Nothing was charged; please try again.',
      });
      expect(broken.logs.some((line) => line.includes('"msg":"unhandled error"'))).toBe(true);
    } finally {
      await broken.app.close();
    }
  });
});
