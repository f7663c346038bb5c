import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// An Idempotency-Key is whatever the client put in the header (a card number, pasted by mistake, too) and the
// capability to read the first answer again: only a keyed hash of it is stored (docs/security.md, "What is stored").
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

/** Every column of the organization's idempotency_keys rows, as text. */
async function storedKeyRows(organizationId: number): Promise<string[]> {
  const { rows } = await t.db.query<{ row: string }>(
    'SELECT row_to_json(k)::text AS row FROM idempotency_keys k WHERE organization_id = $1',
    [organizationId],
  );
  return rows.map((entry) => entry.row);
}

describe('an Idempotency-Key', () => {
  it.each([
    ['a card number', CARDS.mastercard, card(CARDS.visa)],
    ['any key', 'checkout-attempt-7f3c9a', card(CARDS.visa)],
    ['a card number, on a declined payment', CARDS.discover, card(CARDS.declined)],
  ])(
    'that is %s is kept in no column, and its retry still replays the first answer',
    async (_, key, payment) => {
      const { store, shopper } = await storeWithShopper(t.app, t.db);
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      const headers = { 'idempotency-key': key };
      const first = await shopper.post('orders', orderBody(token, { payment }), headers);
      expect([200, 402], JSON.stringify(first.body)).toContain(first.status);

      const rows = await storedKeyRows(store.org.id);
      expect(rows).toHaveLength(1);
      for (const row of rows) {
        expect(row).not.toContain(key);
        // Nor its last 12 characters (a card number less its first digits).
        expect(row).not.toContain(key.slice(-12));
      }

      const retried = await shopper.post('orders', orderBody(token, { payment }), headers);
      expect(retried.status).toBe(first.status);
      expect(retried.body).toEqual(first.body);
      expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
    },
  );
});
