import type { Queryable } from '../db/database.js';
import type { ShippingProfileRow } from './shipping-profiles-repository.js';
import type { TaxRateRow } from './tax-rates-repository.js';

/** What pricing a cart for a place reads from the database. */
export interface PricingPlaces {
  /** active profiles shipping to the country, cheapest first (none when no country was asked about) */
  shippingProfiles: ShippingProfileRow[];
  /** whether the organization has any active profile (only asked when none ships to the country) */
  hasShippingProfiles: boolean;
  /** the state's own rate when there is one, else the country's (null when no place was asked about) */
  taxRate: TaxRateRow | null;
}

/** An address as pricing reads it: shipping goes to its shipping country; tax follows its shipping or billing place. */
export interface PlacesAddress {
  shipCountry: string | null;
  shipState: string | null;
  billCountry: string | null;
  billState: string | null;
}

/**
 * What pricing may read for one address, read before the cart's lines say which of it is needed (loadCartSnapshot):
 * the profiles for its shipping country and the tax rates of both its places.
 */
export interface AddressPlaces {
  address: PlacesAddress;
  /** as PricingPlaces, for address.shipCountry */
  shippingProfiles: ShippingProfileRow[];
  hasShippingProfiles: boolean;
  /** as PricingPlaces.taxRate, for the shipping place and for the billing place */
  shipTaxRate: TaxRateRow | null;
  billTaxRate: TaxRateRow | null;
}

type Stored<Row> = Omit<Row, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

interface PlacesRow {
  profiles: Stored<ShippingProfileRow>[];
  has_profiles: boolean;
  tax_rate: Stored<TaxRateRow> | null;
}

// Rows nested as JSON: their timestamps are text again and become Dates, as the row types say.
function withDates<Row>(row: Stored<Row>): Row {
  return { ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) } as Row;
}

/** The rate of a tax place (country $country, state $state): the state's own rate wins over the country's. */
function taxRateSql(organization: string, country: string, state: string): string {
  return `(SELECT row_to_json(t) FROM (
             SELECT * FROM tax_rates
              WHERE ${country}::text IS NOT NULL AND organization_id = ${organization} AND country = ${country}::text
                AND (state IS NULL OR state = ${state}::text)
              ORDER BY state IS NULL LIMIT 1) t)`;
}

/**
 * The shipping profiles for `shipCountry` and the tax rate for `taxPlace`, in one statement (each is skipped when
 * null). The state's own rate wins over the country's.
 */
export async function findPricingPlaces(
  db: Queryable,
  organizationId: number,
  shipCountry: string | null,
  taxPlace: { country: string; state: string | null } | null,
): Promise<PricingPlaces> {
  const { rows } = await db.query<PlacesRow>(
    `WITH profiles AS (
       SELECT * FROM shipping_profiles
        WHERE $2::text IS NOT NULL AND organization_id = $1 AND active AND $2 = ANY(countries)
     )
     SELECT coalesce((SELECT json_agg(p ORDER BY p.price, p.id) FROM profiles p), '[]'::json) AS profiles,
            $2::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM profiles)
              AND EXISTS (SELECT 1 FROM shipping_profiles WHERE organization_id = $1 AND active) AS has_profiles,
            ${taxRateSql('$1', '$3', '$4')} AS tax_rate`,
    [organizationId, shipCountry, taxPlace?.country ?? null, taxPlace?.state ?? null],
  );
  const row = rows[0] as PlacesRow;
  const shippingProfiles = row.profiles.map((profile) => withDates<ShippingProfileRow>(profile));
  return {
    shippingProfiles,
    hasShippingProfiles: shippingProfiles.length > 0 || row.has_profiles,
    taxRate: row.tax_rate ? withDates<TaxRateRow>(row.tax_rate) : null,
  };
}

/**
 * The SQL of one JSON column holding an address's places (AddressPlaces, as stored), for a statement of the caller's:
 * `organization` names the organization's id; the address is four text parameters from `$first` (shipping country
 * and state, billing country and state). The same text for the same arguments, so the statement stays prepared.
 */
export function addressPlacesSql(organization: string, first: number): string {
  const [shipCountry, shipState, billCountry, billState] = [0, 1, 2, 3].map((i) => `$${first + i}`);
  return `json_build_object(
           'profiles', coalesce((SELECT json_agg(p ORDER BY p.price, p.id) FROM shipping_profiles p
                                  WHERE ${shipCountry}::text IS NOT NULL AND p.organization_id = ${organization}
                                    AND p.active AND ${shipCountry}::text = ANY(p.countries)), '[]'::json),
           'has_profiles', ${shipCountry}::text IS NOT NULL
                           AND EXISTS (SELECT 1 FROM shipping_profiles
                                        WHERE organization_id = ${organization} AND active),
           'ship_tax_rate', ${taxRateSql(organization, shipCountry as string, shipState as string)},
           'bill_tax_rate', ${taxRateSql(organization, billCountry as string, billState as string)})`;
}

/** The parameters of addressPlacesSql, in its order. */
export function addressPlacesParams(address: PlacesAddress): (string | null)[] {
  return [address.shipCountry, address.shipState, address.billCountry, address.billState];
}

/** An address's places as addressPlacesSql answers them. */
export interface StoredAddressPlaces {
  profiles: Stored<ShippingProfileRow>[];
  has_profiles: boolean;
  ship_tax_rate: Stored<TaxRateRow> | null;
  bill_tax_rate: Stored<TaxRateRow> | null;
}

export function parseAddressPlaces(address: PlacesAddress, stored: StoredAddressPlaces): AddressPlaces {
  const shippingProfiles = stored.profiles.map((profile) => withDates<ShippingProfileRow>(profile));
  return {
    address,
    shippingProfiles,
    hasShippingProfiles: shippingProfiles.length > 0 || stored.has_profiles,
    shipTaxRate: stored.ship_tax_rate ? withDates<TaxRateRow>(stored.ship_tax_rate) : null,
    billTaxRate: stored.bill_tax_rate ? withDates<TaxRateRow>(stored.bill_tax_rate) : null,
  };
}

/**
 * What findPricingPlaces would answer for `shipCountry` and `taxPlace`, from an address's places read earlier; null
 * when that address did not ask about them.
 */
export function pricingPlacesFrom(
  known: AddressPlaces,
  shipCountry: string | null,
  taxPlace: { country: string; state: string | null } | null,
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
