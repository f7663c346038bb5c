import type { CreateCart } from '../../../contract/merchant.js';
import type { Database } from '../../platform/db/database.js';
import { DEFAULT_LANGUAGE } from '../../../i18n/languages.js';
import { validationError } from '../../platform/errors.js';
import { insertCart } from './carts-repository.js';
import { insertCustomer, upsertAddress } from './customers-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { checkCartLines, checkDiscountCodeExists, checkSubscribeChoices } from './cart-lines.js';
import { newCartToken } from '../../platform/security/secrets.js';
import { isCountryCode } from '../../../domain/countries.js';
import { previewAddress, storeCartPreview } from './cart-preview-store.js';
import { loadCartSnapshot } from './cart-snapshot-repository.js';

/** How long a cart stays open for checkout. */
export const CART_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export async function createMerchantCart(
  db: Database,
  organization: OrganizationRow,
  input: CreateCart,
  options: { publicUrl: string; now: Date; source?: 'merchant' | 'demo' },
): Promise<{ cart_token: string; checkout_url: string }> {
  return db.transaction(async (tx) => {
    const fields: Record<string, string> = {};
    const lines = await checkCartLines(tx, organization.id, input.offers, fields);
    const subscribed = checkSubscribeChoices(input.offers, lines, fields);
    const code = await checkDiscountCodeExists(tx, organization.id, input.discount_code, fields);
    if (Object.keys(fields).length > 0) throw validationError(fields);

    let customerId: number | null = null;
    const customer = input.customer;
    if (customer && Object.values(customer).some((value) => value !== undefined && value !== '')) {
      const row = await insertCustomer(tx, organization.id, {
        email: customer.email ?? '',
        phone: customer.phone ?? '',
        first_name: customer.ship_fname ?? '',
        last_name: customer.ship_lname ?? '',
      });
      customerId = row.id;
      await upsertAddress(
        tx,
        organization.id,
        row.id,
        'shipping',
        {
          first_name: customer.ship_fname ?? '',
          last_name: customer.ship_lname ?? '',
          address1: customer.ship_address1 ?? '',
          address2: customer.ship_address2 ?? '',
          city: customer.ship_city ?? '',
          state: customer.ship_state ?? '',
          zipcode: customer.ship_zipcode ?? '',
          country: customer.ship_country ?? '',
          phone: customer.phone ?? '',
        },
        options.now,
      );
    }

    const token = newCartToken();
    await insertCart(
      tx,
      organization.id,
      {
        token,
        source: options.source ?? 'merchant',
        customerId,
        discountCodeId: code?.id ?? null,
        expiresAt: new Date(options.now.getTime() + CART_LIFETIME_MS),
        now: options.now,
      },
      lines.map((line, index) => ({
        offer_id: line.offer.id,
        quantity: line.quantity,
        is_gift: line.is_gift,
        subscribed: subscribed[index] ?? false,
      })),
    );
    const shipCountry = customer?.ship_country ?? '';
    if (isCountryCode(shipCountry)) {
      // Its page then opens with tax and shipping for that address, not a total that changes a moment later.
      const query = {
        ship_country: shipCountry,
        ship_state: customer?.ship_state || undefined,
        ship_zipcode: customer?.ship_zipcode || undefined,
        ship_city: customer?.ship_city || undefined,
        same_address: 'true',
      };
      const places = previewAddress(query);
      const state = await loadCartSnapshot(tx, organization.id, { token }, { lock: true, places });
      // The merchant's API answers nothing of it: its notices are English, for developers.
      if (state) await storeCartPreview(tx, state, query, options.now, DEFAULT_LANGUAGE);
    }
    return { cart_token: token, checkout_url: `${options.publicUrl}/checkout/${token}` };
  });
}
