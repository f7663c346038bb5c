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

interface PlacesRow {
  profiles: (Omit<ShippingProfileRow, 'created_at' | 'updated_at'> & {
    created_at: string;
    updated_at: string;
  })[];
  has_profiles: boolean;
  tax_rate:
    (Omit<TaxRateRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string }) | null;
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
            (SELECT row_to_json(t) FROM (
               SELECT * FROM tax_rates
                WHERE $3::text IS NOT NULL AND organization_id = $1 AND country = $3 AND (state IS NULL OR state = $4)
                ORDER BY state IS NULL LIMIT 1) t) AS tax_rate`,
    [organizationId, shipCountry, taxPlace?.country ?? null, taxPlace?.state ?? null],
  );
  const row = rows[0] as PlacesRow;
  const shippingProfiles = row.profiles.map((profile) => ({
    ...profile,
    created_at: new Date(profile.created_at),
    updated_at: new Date(profile.updated_at),
  }));
  return {
    shippingProfiles,
    hasShippingProfiles: shippingProfiles.length > 0 || row.has_profiles,
    taxRate: row.tax_rate
      ? {
          ...row.tax_rate,
          created_at: new Date(row.tax_rate.created_at),
          updated_at: new Date(row.tax_rate.updated_at),
        }
      : null,
  };
}
