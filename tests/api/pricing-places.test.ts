import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCartSnapshot } from '../../src/server/modules/carts/cart-snapshot-repository.js';
import {
  addressAsking,
  findAddressPlaces,
  pricingPlacesFrom,
  type PricingAddress,
} from '../../src/server/modules/carts/pricing-repository.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// The preview and the order read an address's shipping profiles and tax rates with the cart (one statement less):
// what pricing then takes from them must be what it reads on its own when the cart came without them.
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
  }) satisfies PricingAddress;

/** What pricing reads for these places when the cart was not read with its address (cart-pricing's other path). */
const readAlone = async (organizationId: number, shipCountry: string | null, taxPlace: TaxPlace) =>
  pricingPlacesFrom(
    await findAddressPlaces(t.db, organizationId, addressAsking(shipCountry, taxPlace)),
    shipCountry,
    taxPlace,
  );

describe('the places read with the cart', () => {
  it('answer what pricing reads on its own, for every place the address names', async () => {
    const store = await createStore(t.app, t.db);
    // A state's own rate, a country's rate, a retired profile: each must come back as pricing reads it on its own.
    await store.create('/tax-rates', { country: 'US', rate: 5 });
    await store.create('/shipping-profiles', {
      name: 'Old',
      countries: ['US', 'FR'],
      price: 1,
      active: false,
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);

    // What pricing asks of an address, [ship country, tax place]: a cart that ships asks for its shipping country and
    // place; a gift claim (shipping paid by the giver) for the shipping place's tax only; a cart with nothing to ship
    // for the billing place's tax, or the shipping place's when there is no billing address.
    const cases: { address: PricingAddress; asked: [string | null, TaxPlace][] }[] = [
      {
        address: address(['US', 'TX'], ['GB', null]),
        asked: [
          ['US', { country: 'US', state: 'TX' }],
          [null, { country: 'US', state: 'TX' }],
          [null, { country: 'GB', state: null }],
        ],
      },
      {
        address: address(['US', 'NY'], null),
        asked: [
          ['US', { country: 'US', state: 'NY' }],
          [null, { country: 'US', state: 'NY' }],
        ],
      },
      // Profiles exist, none ships to France: pricing says so ("we don't ship to France").
      { address: address(['FR', null], null), asked: [['FR', { country: 'FR', state: null }]] },
      { address: address(['CA', 'QC'], ['CA', 'QC']), asked: [['CA', { country: 'CA', state: 'QC' }]] },
      { address: address(null, ['GB', null]), asked: [[null, { country: 'GB', state: null }]] },
      // Shipped abroad, billed in a state with its own rate.
      {
        address: address(['GB', null], ['US', 'TX']),
        asked: [
          ['GB', { country: 'GB', state: null }],
          [null, { country: 'US', state: 'TX' }],
        ],
      },
    ];
    for (const { address: known, asked } of cases) {
      const snapshot = await loadCartSnapshot(t.db, store.org.id, { token }, { places: known });
      // The places column of the cart's statement (its parameters from $3) answers as the statement of its own does.
      expect(snapshot?.places, JSON.stringify(known)).toEqual(
        await findAddressPlaces(t.db, store.org.id, known),
      );
      for (const [shipCountry, taxPlace] of asked) {
        const alone = await readAlone(store.org.id, shipCountry, taxPlace);
        expect(alone, JSON.stringify({ shipCountry, taxPlace })).not.toBeNull();
        const withCart = snapshot?.places && pricingPlacesFrom(snapshot.places, shipCountry, taxPlace);
        expect(withCart, JSON.stringify({ known, shipCountry, taxPlace })).toEqual(alone);
      }
    }

    // A digital cart billed in Britain, shipped to Texas: Britain's rate and no shipping.
    const billedAbroad = await loadCartSnapshot(
      t.db,
      store.org.id,
      { token },
      { places: address(['US', 'TX'], ['GB', null]) },
    );
    const digital =
      billedAbroad?.places && pricingPlacesFrom(billedAbroad.places, null, { country: 'GB', state: null });
    expect(digital?.taxRate?.rate_ppm).toBe(200_000);
    expect(digital?.shippingProfiles).toEqual([]);
    expect(digital?.hasShippingProfiles).toBe(false);
    // France: no profile ships there (the retired one does not count), yet the store has profiles.
    const france = await loadCartSnapshot(
      t.db,
      store.org.id,
      { token },
      { places: address(['FR', null], null) },
    );
    expect(france?.places?.shippingProfiles).toEqual([]);
    expect(france?.places?.hasShippingProfiles).toBe(true);
    const texas = await loadCartSnapshot(
      t.db,
      store.org.id,
      { token },
      { places: address(['US', 'TX'], null) },
    );
    expect(texas?.places?.shipTaxRate?.rate_ppm).toBe(82_500);
    expect(texas?.places?.shippingProfiles.map((profile) => profile.name)).toEqual(['Standard', 'Express']);
    expect(texas?.places?.hasShippingProfiles).toBe(true);
    expect(texas?.places?.shippingProfiles[0]?.created_at).toBeInstanceOf(Date);
    expect(texas?.places?.shipTaxRate?.updated_at).toBeInstanceOf(Date);
  });

  it('say the store ships nowhere when it has no active profile', async () => {
    const store = await createStore(t.app, t.db);
    for (const profile of Object.values(store.profiles)) {
      expect((await store.api.patch(`/shipping-profiles/${profile.id}`, { active: false })).status).toBe(200);
    }
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const texas = address(['US', 'TX'], null);
    const snapshot = await loadCartSnapshot(t.db, store.org.id, { token }, { places: texas });
    const asked = { country: 'US', state: 'TX' };
    const withCart = snapshot?.places && pricingPlacesFrom(snapshot.places, 'US', asked);
    // No "we don't ship to" notice: the store has nothing to ship with at all.
    expect(withCart?.shippingProfiles).toEqual([]);
    expect(withCart?.hasShippingProfiles).toBe(false);
    expect(withCart?.taxRate?.rate_ppm).toBe(82_500);
    expect(withCart).toEqual(await readAlone(store.org.id, 'US', asked));
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
