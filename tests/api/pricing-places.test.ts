import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCartSnapshot } from '../../src/server/repositories/cart-snapshot-repository.js';
import {
  findPricingPlaces,
  pricingPlacesFrom,
  type PlacesAddress,
} from '../../src/server/repositories/pricing-repository.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The preview and the order read an address's shipping profiles and tax rates with the cart (one statement less):
// what pricing then takes from them must be what it read on its own before.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

type TaxPlace = { country: string; state: string | null } | null;

const address = (ship: [string, string | null] | null, bill: [string, string | null] | null) =>
  ({
    shipCountry: ship?.[0] ?? null,
    shipState: ship?.[1] ?? null,
    billCountry: bill?.[0] ?? null,
    billState: bill?.[1] ?? null,
  }) satisfies PlacesAddress;

describe('the places read with the cart', () => {
  it('answer what pricing reads on its own, for every place the address names', async () => {
    const store = await createStore(t.app, t.db);
    // A state's own rate, a country's rate, a retired profile: each must come back as findPricingPlaces has it.
    await store.create('/tax-rates', { country: 'US', rate: 5 });
    await store.create('/shipping-profiles', {
      name: 'Old',
      countries: ['US', 'FR'],
      price: 1,
      active: false,
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);

    const cases: { address: PlacesAddress; asked: [string | null, TaxPlace][] }[] = [
      {
        address: address(['US', 'TX'], ['GB', null]),
        asked: [
          ['US', { country: 'US', state: 'TX' }],
          ['US', { country: 'GB', state: null }],
          [null, { country: 'GB', state: null }],
          [null, { country: 'US', state: 'TX' }],
          ['US', null],
        ],
      },
      { address: address(['US', 'NY'], null), asked: [['US', { country: 'US', state: 'NY' }]] },
      // Profiles exist, none ships to France: pricing says so ("we don't ship to France").
      { address: address(['FR', null], null), asked: [['FR', { country: 'FR', state: null }]] },
      { address: address(['CA', 'QC'], ['CA', 'QC']), asked: [['CA', { country: 'CA', state: 'QC' }]] },
      { address: address(null, ['GB', null]), asked: [[null, { country: 'GB', state: null }]] },
    ];
    for (const { address: known, asked } of cases) {
      const snapshot = await loadCartSnapshot(t.db, store.org.id, { token }, { places: known });
      expect(snapshot?.places?.address).toEqual(known);
      for (const [shipCountry, taxPlace] of asked) {
        const alone = await findPricingPlaces(t.db, store.org.id, shipCountry, taxPlace);
        const withCart = snapshot?.places && pricingPlacesFrom(snapshot.places, shipCountry, taxPlace);
        expect(withCart, JSON.stringify({ known, shipCountry, taxPlace })).toEqual(alone);
      }
    }
    const texas = await loadCartSnapshot(
      t.db,
      store.org.id,
      { token },
      { places: address(['US', 'TX'], null) },
    );
    expect(texas?.places?.shipTaxRate?.rate_ppm).toBe(82_500);
    expect(texas?.places?.shippingProfiles.map((profile) => profile.name)).toEqual(['Standard', 'Express']);
  });

  it('are not used for a place the address did not name', async () => {
    const store = await createStore(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const snapshot = await loadCartSnapshot(
      t.db,
      store.org.id,
      { token },
      { places: address(['US', 'TX'], null) },
    );
    const places = snapshot?.places;
    expect(places).toBeDefined();
    if (!places) return;
    expect(pricingPlacesFrom(places, 'GB', null)).toBeNull();
    expect(pricingPlacesFrom(places, 'US', { country: 'US', state: null })).toBeNull();
    expect(pricingPlacesFrom(places, null, { country: 'GB', state: null })).toBeNull();
    // Without an address, the snapshot brings no places.
    expect((await loadCartSnapshot(t.db, store.org.id, { token }))?.places).toBeUndefined();
  });
});
