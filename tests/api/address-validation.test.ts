// The shopper's address is checked by its country's rules from Google's address data (docs/languages.md,
// "Addresses"): the server takes a valid address in every continent and refuses a bad one with the field to fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

interface Case {
  valid: { ship_city?: string; ship_state?: string; ship_zipcode?: string };
  badPostalCode: string;
  /** what the refusal says of the postal code */
  postalMessage: string;
  /** a state that is not one of the country's, where it lists them */
  unknownState?: { value: string; message: string };
  /** what the refusal says when a required state is left out */
  missingState?: string;
}

const CASES: Record<string, Case> = {
  // North America
  US: {
    valid: { ship_state: 'NY', ship_zipcode: '10001-1234' },
    badPostalCode: '1000',
    postalMessage: 'Enter a ZIP code like 95014.',
    unknownState: { value: 'ON', message: 'Choose a state from the list.' },
    missingState: 'Choose a state.',
  },
  MX: {
    valid: { ship_city: 'Guadalajara', ship_state: 'JAL', ship_zipcode: '44100' },
    badPostalCode: '4410',
    postalMessage: 'Enter a postal code like 02860.',
    unknownState: { value: 'TX', message: 'Choose a state from the list.' },
    missingState: 'Choose a state.',
  },
  // South America
  BR: {
    valid: { ship_city: 'São Paulo', ship_state: 'SP', ship_zipcode: '01310-100' },
    badPostalCode: '0131-100',
    postalMessage: 'Enter a postal code like 40301-110.',
    unknownState: { value: 'XX', message: 'Choose a state from the list.' },
    missingState: 'Choose a state.',
  },
  // Europe
  DE: {
    valid: { ship_city: 'Berlin', ship_state: '', ship_zipcode: '10115' },
    badPostalCode: '1011',
    postalMessage: 'Enter a postal code like 26133.',
  },
  IE: {
    valid: { ship_city: 'Dublin', ship_state: 'D', ship_zipcode: 'D02 AF30' },
    badPostalCode: '',
    postalMessage: '',
    unknownState: { value: 'ZZ', message: 'Choose a county from the list.' },
  },
  // Asia
  JP: {
    valid: { ship_city: '', ship_state: '13', ship_zipcode: '100-0001' },
    badPostalCode: '100-00011',
    postalMessage: 'Enter a postal code like 154-0023.',
    unknownState: { value: '48', message: 'Choose a prefecture from the list.' },
    missingState: 'Choose a prefecture.',
  },
  IN: {
    valid: { ship_city: 'Mumbai', ship_state: 'MH', ship_zipcode: '400001' },
    badPostalCode: '40001',
    postalMessage: 'Enter a PIN code like 110034.',
    unknownState: { value: 'TX', message: 'Choose a state from the list.' },
    missingState: 'Choose a state.',
  },
  // Oceania
  AU: {
    valid: { ship_city: 'Sydney', ship_state: 'NSW', ship_zipcode: '2000' },
    badPostalCode: '200',
    postalMessage: 'Enter a postal code like 2060.',
    unknownState: { value: 'ON', message: 'Choose a state from the list.' },
    missingState: 'Choose a state.',
  },
  // Africa
  EG: {
    // Google's pattern (five digits) refuses its own newer examples (4460232): no pattern is checked.
    valid: { ship_city: 'Cairo', ship_state: 'C', ship_zipcode: '4460232' },
    badPostalCode: '',
    postalMessage: '',
    unknownState: { value: 'XX', message: 'Choose a province from the list.' },
  },
  ZA: {
    valid: { ship_city: 'Pretoria', ship_state: '', ship_zipcode: '0083' },
    badPostalCode: '83',
    postalMessage: 'Enter a postal code like 0083.',
  },
};

async function storeShippingEverywhere() {
  const setup = await storeWithShopper(t.app, t.db);
  await setup.store.create('/shipping-profiles', {
    name: 'Worldwide',
    countries: Object.keys(CASES).filter((country) => country !== 'US'),
    price: 10,
  });
  return setup;
}

const address = (country: string, fields: Case['valid']) => ({
  ship_country: country,
  ship_city: 'Town',
  ...Object.fromEntries(Object.entries(fields)),
});

describe('shopper addresses by country', () => {
  it.each(Object.keys(CASES))('takes a valid address in %s', async (country) => {
    const { store, shopper } = await storeShippingEverywhere();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post(
      'orders',
      orderBody(token, address(country, CASES[country]?.valid ?? {})),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.order.status).toBe('complete');
    const { rows } = await t.db.query<{ shipping_address: { country: string; state: string } }>(
      'SELECT shipping_address FROM orders WHERE organization_id = $1',
      [store.org.id],
    );
    expect(rows.map((row) => row.shipping_address)).toEqual([
      expect.objectContaining({ country, state: CASES[country]?.valid.ship_state ?? '' }),
    ]);
  });

  it.each(Object.keys(CASES))(
    'refuses a bad postal code and an unknown subdivision in %s',
    async (country) => {
      const rules = CASES[country];
      if (!rules) throw new Error(country);
      const { store, shopper } = await storeShippingEverywhere();
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      const bad = {
        ...rules.valid,
        ...(rules.postalMessage ? { ship_zipcode: rules.badPostalCode } : {}),
        ...(rules.unknownState ? { ship_state: rules.unknownState.value } : {}),
      };
      const response = await shopper.post('orders', orderBody(token, address(country, bad)));
      expect(response.status).toBe(422);
      expect(response.body.fields).toEqual({
        ...(rules.postalMessage ? { ship_zipcode: rules.postalMessage } : {}),
        ...(rules.unknownState ? { ship_state: rules.unknownState.message } : {}),
      });
      if (rules.missingState) {
        const missing = await shopper.post(
          'orders',
          orderBody(token, address(country, { ...rules.valid, ship_state: '' })),
        );
        expect(missing.status).toBe(422);
        expect(missing.body.fields).toEqual({ ship_state: rules.missingState });
      }
      const { rows } = await t.db.query('SELECT 1 FROM orders WHERE organization_id = $1', [store.org.id]);
      expect(rows).toEqual([]);
    },
  );

  it('takes the postal code in any case with spaces around it, and an Irish address without its Eircode', async () => {
    const { store, shopper } = await storeShippingEverywhere();
    const first = await store.cart([{ offer_id: store.offers.beans.id }]);
    const lower = await shopper.post(
      'orders',
      orderBody(first, address('CA', { ship_state: 'on', ship_zipcode: ' k1a 0b1 ' })),
    );
    expect(lower.status, JSON.stringify(lower.body)).toBe(200);
    const second = await store.cart([{ offer_id: store.offers.beans.id }]);
    const irish = await shopper.post(
      'orders',
      orderBody(second, address('IE', { ship_state: '', ship_zipcode: '' })),
    );
    expect(irish.status, JSON.stringify(irish.body)).toBe(200);
  });
});

describe('address refusals in the shopper’s language', () => {
  it('are said in Japanese when the page asks for Japanese, and in English when it asks for none', async () => {
    const { store, shopper } = await storeShippingEverywhere();
    const japanese = await shopperSession(t.app, store.org.publicId, {
      headers: { 'accept-language': 'ja-JP,ja;q=0.9' },
    });
    const bad = address('JP', { ship_city: '', ship_state: '', ship_zipcode: '1000' });
    const response = await japanese.post(
      'orders',
      orderBody(await store.cart([{ offer_id: store.offers.beans.id }]), bad),
    );
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      status: 422,
      code: 'validation_failed',
      message: 'ハイライトされた2件の項目を確認してください。',
      fields: {
        ship_state: '都道府県を選択してください。',
        ship_zipcode: '154-0023 の形式で郵便番号を入力してください。',
      },
    });
    const english = await shopper.post(
      'orders',
      orderBody(await store.cart([{ offer_id: store.offers.beans.id }]), bad),
    );
    expect(english.body.fields).toEqual({
      ship_state: 'Choose a prefecture.',
      ship_zipcode: 'Enter a postal code like 154-0023.',
    });
  });
});
