// Tax and shipping for the address a shopper is typing, stored on the cart as its preview.
import type { PreviewQuery, PreviewResponse } from '../../../contract/cart.js';
import { isCountryCode } from '../../../domain/countries.js';
import type { Database } from '../../platform/db/database.js';
import { validationError } from '../../platform/errors.js';
import type { ShopperContext } from '../organizations/request-context.js';
import { previewAddress, storeCartPreview } from './cart-preview-store.js';
import { refuseIfComplete, requireCartState } from './cart-service.js';

/**
 * Tax and shipping for an address and shipping profile. With ship_country the preview is stored on the cart;
 * without it the profiles are emptied, the chosen one cleared and the stored preview dropped. Echoes version.
 */
export async function previewCart(
  db: Database,
  shopper: ShopperContext,
  token: string,
  query: PreviewQuery,
  now: Date,
): Promise<PreviewResponse> {
  const fields: Record<string, string> = {};
  for (const key of ['ship_country', 'bill_country'] as const) {
    const value = query[key];
    if (value !== undefined && !isCountryCode(value))
      fields[key] = 'Use a two-letter ISO country code such as US.';
  }
  if (query.shipping_profile_id !== undefined && !/^\d{1,15}$/.test(query.shipping_profile_id)) {
    fields.shipping_profile_id = 'Choose one of the shipping options offered.';
  }
  if (query.same_address !== undefined && !['true', 'false'].includes(query.same_address)) {
    fields.same_address = 'Use true or false.';
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);

  return db.transaction(async (tx) => {
    // The shipping profiles and tax rates of the address come with the cart.
    const state = await requireCartState(tx, shopper, token, now, {
      lock: true,
      places: previewAddress(query),
    });
    refuseIfComplete(state);
    return storeCartPreview(tx, state, query, now, shopper.language);
  });
}
