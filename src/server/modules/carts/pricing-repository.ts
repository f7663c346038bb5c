import type { Queryable } from '../../platform/db/database.js';
import { withDates, type Stored } from '../../platform/db/json-rows.js';
import type { ShippingProfileRow } from '../catalog/shipping-profiles-repository.js';
import type { TaxRateRow } from '../catalog/tax-rates-repository.js';

/** What pricing a cart for a place reads from the database. */
export interface PricingPlaces {
  /** active profiles shipping to the country, cheapest first (none when no country was asked about) */
  shippingProfiles: ShippingProfileRow[];
  /** whether the organization has any active profile (false when no country was asked about) */
  hasShippingProfiles: boolean;
  /** the state's own rate when there is one, else the country's (null when no place was asked about) */
  taxRate: TaxRateRow | null;
}

/** The places a cart is priced for: shipping goes to the shipping country; tax follows its shipping or billing place. */
export interface PricingAddress {
  shipCountry: string | null;
  shipState: string | null;
  billCountry: string | null;
  billState: string | null;
}

type TaxPlace = { country: string; state: string | null } | null;

/**
 * What pricing may read for one address (addressPlacesSql), read before the cart's lines say which of it is needed:
 * the profiles for its shipping country and the tax rates of both its places.
 */
export interface AddressPlaces {
  address: PricingAddress;
  /** as PricingPlaces, for address.shipCountry */
  shippingProfiles: ShippingProfileRow[];
  hasShippingProfiles: boolean;
  /** as PricingPlaces.taxRate, for the shipping place and for the billing place */
  shipTaxRate: TaxRateRow | null;
  billTaxRate: TaxRateRow | null;
}

const ROW_DATES = ['created_at', 'updated_at'] as const;

/** The rate of a tax place (country $country, state $state): the state's own rate wins over the country's. */
function taxRateSql(organization: string, country: string, state: string): string {
  return `(SELECT row_to_json(t) FROM (
             SELECT * FROM tax_rates
              WHERE ${country}::text IS NOT NULL AND organization_id = ${organization} AND country = ${country}::text
                AND (state IS NULL OR state = ${state}::text)
              ORDER BY state IS NULL LIMIT 1) t)`;
}

/**
 * The SQL of one JSON value holding an address's places (StoredAddressPlaces), as a column of a statement of the
 * caller's or on its own (findAddressPlaces): `organization` names the organization's id; the address is four text
 * parameters from `$first` (addressPlacesParams). Each part is skipped when its place is null. The same text for the
 * same arguments, so the statement stays prepared.
 */
export function addressPlacesSql(organization: string, first: number): string {
  const [shipCountry, shipState, billCountry, billState] = [0, 1, 2, 3].map((i) => `$${first + i}`) as [
    string,
    string,
    string,
    string,
  ];
  // Whether the organization has any active profile is asked only when none ships to the country (CASE evaluates
  // only the branch it takes).
  return `(SELECT json_build_object(
             'profiles', coalesce(sp.profiles, '[]'::json),
             'has_profiles', CASE WHEN sp.profiles IS NOT NULL THEN true
                                  WHEN ${shipCountry}::text IS NULL THEN false
                                  ELSE EXISTS (SELECT 1 FROM shipping_profiles
                                                WHERE organization_id = ${organization} AND active) END,
             'ship_tax_rate', ${taxRateSql(organization, shipCountry, shipState)},
             'bill_tax_rate', ${taxRateSql(organization, billCountry, billState)})
             FROM (SELECT json_agg(p ORDER BY p.price, p.id) AS profiles FROM shipping_profiles p
                    WHERE ${shipCountry}::text IS NOT NULL AND p.organization_id = ${organization}
                      AND p.active AND ${shipCountry}::text = ANY(p.countries)) sp)`;
}

/**
 * The parameters of addressPlacesSql, in its order. A billing place equal to the shipping place (the default, same
 * address) is not asked again: pricingPlacesFrom answers it from the shipping place's tax rate.
 */
export function addressPlacesParams(address: PricingAddress): (string | null)[] {
  const billIsShip = address.billCountry === address.shipCountry && address.billState === address.shipState;
  return [
    address.shipCountry,
    address.shipState,
    billIsShip ? null : address.billCountry,
    billIsShip ? null : address.billState,
  ];
}

/** An address's places as addressPlacesSql answers them. */
export interface StoredAddressPlaces {
  profiles: Stored<ShippingProfileRow>[];
  has_profiles: boolean;
  ship_tax_rate: Stored<TaxRateRow> | null;
  bill_tax_rate: Stored<TaxRateRow> | null;
}

/** The one reader of addressPlacesSql's answer, whether it came with the cart or on its own. */
export function parseAddressPlaces(address: PricingAddress, stored: StoredAddressPlaces): AddressPlaces {
  return {
    address,
    shippingProfiles: stored.profiles.map((profile) => withDates<ShippingProfileRow>(profile, ROW_DATES)),
    hasShippingProfiles: stored.has_profiles,
    shipTaxRate: stored.ship_tax_rate ? withDates<TaxRateRow>(stored.ship_tax_rate, ROW_DATES) : null,
    billTaxRate: stored.bill_tax_rate ? withDates<TaxRateRow>(stored.bill_tax_rate, ROW_DATES) : null,
  };
}

/** An address's places in a statement of their own, for a cart that was not read with them. */
export async function findAddressPlaces(
  db: Queryable,
  organizationId: number,
  address: PricingAddress,
): Promise<AddressPlaces> {
  const { rows } = await db.query<{ places: StoredAddressPlaces }>(
    `SELECT ${addressPlacesSql('$1', 2)} AS places`,
    [organizationId, ...addressPlacesParams(address)],
  );
  return parseAddressPlaces(address, (rows[0] as { places: StoredAddressPlaces }).places);
}

/**
 * The address whose places hold exactly what pricing asks for `shipCountry` and `taxPlace` (pricingPlacesFrom
 * answers them from it), so that reading it reads nothing else: the tax place is the shipping place when it is in the
 * shipping country, else the billing place.
 */
export function addressAsking(shipCountry: string | null, taxPlace: TaxPlace): PricingAddress {
  const taxAtShipping = taxPlace !== null && taxPlace.country === shipCountry;
  return {
    shipCountry,
    shipState: taxAtShipping ? taxPlace.state : null,
    billCountry: taxAtShipping ? null : (taxPlace?.country ?? null),
    billState: taxAtShipping ? null : (taxPlace?.state ?? null),
  };
}

/**
 * What pricing reads for `shipCountry` and `taxPlace`, from an address's places read earlier; null when that address
 * did not ask about them.
 */
export function pricingPlacesFrom(
  known: AddressPlaces,
  shipCountry: string | null,
  taxPlace: TaxPlace,
): PricingPlaces | null {
  const { address } = known;
  if (shipCountry !== null && shipCountry !== address.shipCountry) return null;
  let taxRate: TaxRateRow | null = null;
  if (taxPlace !== null) {
    if (taxPlace.country === address.shipCountry && taxPlace.state === address.shipState) {
      taxRate = known.shipTaxRate;
    } else if (taxPlace.country === address.billCountry && taxPlace.state === address.billState) {
      taxRate = known.billTaxRate;
    } else {
      return null;
    }
  }
  return shipCountry === null
    ? { shippingProfiles: [], hasShippingProfiles: false, taxRate }
    : { shippingProfiles: known.shippingProfiles, hasShippingProfiles: known.hasShippingProfiles, taxRate };
}
