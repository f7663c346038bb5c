// The store's settings as the merchant API answers them (GET /checkout/api/merchant/organization): read by the
// Settings screen, and by Shipping and tax for the store's currency.
import { OrganizationSchema } from '../../../contract/merchant.js';
import { request } from '../admin-api.js';

export const ORGANIZATION_KEY = ['organization'] as const;
export const ORGANIZATION_URL = '/checkout/api/merchant/organization';

export function readOrganization() {
  return request(OrganizationSchema, 'GET', ORGANIZATION_URL);
}
