// Shipping profiles and tax rates as the merchant API answers them (docs/api.md, "Merchant API").
import {
  ShippingProfileListSchema,
  ShippingProfileSchema,
  TaxRateListSchema,
  TaxRateSchema,
} from '../../../contract/merchant.js';
import { request } from '../admin-api.js';
import { PAGE_SIZE } from '../kit/paged-list.js';

const BASE = '/checkout/api/merchant';

export const PROFILES_KEY = ['shipping-profiles'] as const;
export const TAX_RATES_KEY = ['tax-rates'] as const;

function pageQuery(startingAfter: number | undefined): string {
  return `?limit=${PAGE_SIZE}${startingAfter === undefined ? '' : `&starting_after=${startingAfter}`}`;
}

export const readProfilePage = (startingAfter: number | undefined) =>
  request(ShippingProfileListSchema, 'GET', `${BASE}/shipping-profiles${pageQuery(startingAfter)}`);

export const readProfile = (id: number) =>
  request(ShippingProfileSchema, 'GET', `${BASE}/shipping-profiles/${id}`);

export const saveProfile = (id: number | null, body: Record<string, unknown>) =>
  id === null
    ? request(ShippingProfileSchema, 'POST', `${BASE}/shipping-profiles`, body)
    : request(ShippingProfileSchema, 'PATCH', `${BASE}/shipping-profiles/${id}`, body);

export const readTaxRatePage = (startingAfter: number | undefined) =>
  request(TaxRateListSchema, 'GET', `${BASE}/tax-rates${pageQuery(startingAfter)}`);

export const readTaxRate = (id: number) => request(TaxRateSchema, 'GET', `${BASE}/tax-rates/${id}`);

export const saveTaxRate = (id: number | null, body: Record<string, unknown>) =>
  id === null
    ? request(TaxRateSchema, 'POST', `${BASE}/tax-rates`, body)
    : request(TaxRateSchema, 'PATCH', `${BASE}/tax-rates/${id}`, body);

/** "42" → 42, "new" → null (a new object), anything else → undefined (no such screen). */
export function objectIdOf(segment: string | undefined): number | null | undefined {
  if (segment === 'new') return null;
  return segment !== undefined && /^\d{1,15}$/.test(segment) ? Number(segment) : undefined;
}
