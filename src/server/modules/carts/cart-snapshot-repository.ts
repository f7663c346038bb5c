import type { Queryable } from '../../platform/db/database.js';
import type { CartLineRow, CartRow } from './carts-repository.js';
import type { AddressRow, CustomerRow } from './customers-repository.js';
import type { DiscountCodeRow } from '../catalog/discount-codes-repository.js';
import { withDates, type Stored } from '../../platform/db/json-rows.js';
import { pricedAsChosen } from '../../../domain/subscribe-and-save.js';
import type { OrderRow } from '../orders/orders-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import type { OfferRow } from '../catalog/offers-repository.js';
import { TRANSLATED_OFFER_FIELDS, type TranslatedOfferField } from '../../../contract/catalogue.js';
import { localizedFields, localizedItemOptions } from '../../../i18n/localized-text.js';
import { settingsOf } from '../organizations/organization-service.js';
import {
  addressPlacesParams,
  addressPlacesSql,
  parseAddressPlaces,
  type AddressPlaces,
  type PricingAddress,
  type StoredAddressPlaces,
} from './pricing-repository.js';

/** One cart with everything a view or a change of it reads: loaded in one statement. */
export interface CartSnapshot {
  cart: CartRow;
  organization: OrganizationRow;
  lines: CartLineRow[];
  discountCode: DiscountCodeRow | null;
  customer: CustomerRow | null;
  addresses: AddressRow[];
  order: OrderRow | null;
  lastPaymentMethod: 'card' | 'paypal' | 'none' | null;
  /** on a gift recipient's claim cart: the gift's line in the giver's cart, its message and the giver's names */
  giftFrom: GiftFromRow | null;
  /** what pricing may read for the address the snapshot was asked to bring along (absent when none was) */
  places?: AddressPlaces;
  /** the order bumps its checkout link names, in order (none: the organization's default applies) */
  linkBumpOfferIds: number[];
  /** the offers of the link's bumps and of the organization's default bumps (cart-bumps.ts chooses) */
  bumpOffers: BumpOfferRow[];
  /** the cart's checkout link names upsells after the order (docs/api.md, "Upsells") */
  hasUpsells?: boolean;
}

/** What an order-bump box shows of its offer. */
export type BumpOfferRow = Pick<
  OfferRow,
  | 'id'
  | 'offer_name'
  | 'offer_title'
  | 'bump_text'
  | 'item_name'
  | 'item_image'
  | 'price'
  | 'is_recurring'
  | 'billing_interval_days'
  | 'next_price'
  | 'active'
  | 'translations'
>;

export interface GiftFromRow {
  line_id: number;
  message: string;
  /** the giver's order as placed: its billing and shipping names (either may be empty) */
  bill_first_name: string;
  bill_last_name: string;
  ship_first_name: string;
  ship_last_name: string;
}

// Nested rows come back as JSON: their timestamps are text again and must become Dates, as the row types say.
interface SnapshotRow {
  cart: Stored<CartRow>;
  organization: Stored<OrganizationRow>;
  lines: CartLineRow[];
  discount_code: Stored<DiscountCodeRow> | null;
  customer: CustomerRow | null;
  addresses: AddressRow[];
  order: Stored<OrderRow> | null;
  last_payment_method: CartSnapshot['lastPaymentMethod'];
  gift_from: GiftFromRow | null;
  places?: StoredAddressPlaces;
  link_bump_offer_ids: number[];
  bump_offers: BumpOfferRow[];
  has_upsells: boolean;
}

const BUMP_FIELDS = ['offer_name', 'offer_title', 'bump_text', 'item_name'] as const;

const CART_DATES = ['expires_at', 'ordered_at', 'created_at', 'updated_at'] as const;
const ORGANIZATION_DATES = ['created_at', 'updated_at'] as const;
const CODE_DATES = ['starts_at', 'ends_at', 'created_at', 'updated_at'] as const;
const ORDER_DATES = [
  'created_at',
  'updated_at',
  'completed_at',
  'payment_lease_until',
  'subscription_terms_accepted_at',
] as const;

const COLUMNS = `
SELECT row_to_json(c) AS cart,
       row_to_json(org) AS organization,
       coalesce((
         SELECT json_agg(l ORDER BY l.position) FROM (
           SELECT co.id, co.offer_id, co.position, co.quantity, co.is_gift, co.is_bump, co.price_override,
                  co.subscribed, coalesce(co.price_override, o.price) AS once_unit_price,
                  o.subscribe_interval_days, o.subscribe_percent_off,
                  o.offer_name, o.offer_title, o.item_id, o.item_name, o.item_image, o.item_category, o.item_options,
                  o.override_initial_item_id, o.override_initial_item_name, o.price, o.is_recurring,
                  o.billing_interval_days, o.next_price, o.trial_days, o.discounted_cycles, o.discounted_price,
                  o.total_cycles, o.prepaid_cycles, o.prepaid_renewal, o.is_giftable, o.is_taxable, o.requires_shipping,
                  o.shipping_price, o.translations, g.gift_name, g.gift_email, to_char(g.gift_date, 'YYYY-MM-DD') AS gift_date,
                  g.gift_message, g.gift_phone, g.order_offer_notes
             FROM cart_offers co
             JOIN offers o ON o.organization_id = co.organization_id AND o.id = co.offer_id
             LEFT JOIN gift_details g ON g.organization_id = co.organization_id AND g.cart_offer_id = co.id
            WHERE co.organization_id = c.organization_id AND co.cart_id = c.id AND co.removed_at IS NULL) l),
                '[]'::json) AS lines,
       (SELECT row_to_json(d) FROM (
          SELECT dc.*, coalesce((SELECT array_agg(x.offer_id ORDER BY x.offer_id) FROM discount_code_offers x
                                  WHERE x.organization_id = dc.organization_id AND x.discount_code_id = dc.id),
                                '{}'::bigint[]) AS offer_ids
            FROM discount_codes dc
           WHERE dc.organization_id = c.organization_id AND dc.id = c.discount_code_id) d) AS discount_code,
       (SELECT row_to_json(cu) FROM customers cu
         WHERE cu.organization_id = c.organization_id AND cu.id = c.customer_id) AS customer,
       coalesce((SELECT json_agg(a) FROM (
          SELECT ad.kind, ad.first_name, ad.last_name, ad.address1, ad.address2, ad.city, ad.state, ad.zipcode,
                 ad.country, ad.phone
            FROM addresses ad WHERE ad.organization_id = c.organization_id AND ad.customer_id = c.customer_id) a),
                '[]'::json) AS addresses,
       (SELECT row_to_json(x) FROM (SELECT ord.*, c.token AS cart_token FROM orders ord
                                     WHERE ord.organization_id = c.organization_id AND ord.cart_id = c.id) x) AS "order",
       (SELECT pa.method FROM payment_attempts pa
         WHERE pa.organization_id = c.organization_id AND pa.cart_id = c.id
         ORDER BY pa.id DESC LIMIT 1) AS last_payment_method,
       (SELECT row_to_json(gf) FROM (
          SELECT g.cart_offer_id AS line_id, g.gift_message AS message,
                 coalesce(go.billing_address->>'fname', '') AS bill_first_name,
                 coalesce(go.billing_address->>'lname', '') AS bill_last_name,
                 coalesce(go.shipping_address->>'fname', '') AS ship_first_name,
                 coalesce(go.shipping_address->>'lname', '') AS ship_last_name
            FROM gift_details g
            JOIN cart_offers gl ON gl.organization_id = g.organization_id AND gl.id = g.cart_offer_id
            JOIN orders go ON go.organization_id = gl.organization_id AND go.cart_id = gl.cart_id
           WHERE g.organization_id = c.organization_id AND g.id = c.gift_claim_id) gf) AS gift_from,
       coalesce((SELECT json_agg(b.offer_id ORDER BY b.position) FROM checkout_link_bumps b
                  WHERE b.organization_id = c.organization_id AND b.checkout_link_id = c.checkout_link_id),
                '[]'::json) AS link_bump_offer_ids,
       coalesce((SELECT json_agg(bo) FROM (
          SELECT o.id, o.offer_name, o.offer_title, o.bump_text, o.item_name, o.item_image, o.price, o.is_recurring,
                 o.billing_interval_days, o.next_price, o.active, o.translations
            FROM offers o
           WHERE o.organization_id = c.organization_id
             AND (o.id IN (SELECT b.offer_id FROM checkout_link_bumps b
                            WHERE b.organization_id = c.organization_id AND b.checkout_link_id = c.checkout_link_id)
                  OR o.id IN (SELECT x.value::bigint FROM jsonb_array_elements_text(
                                CASE WHEN jsonb_typeof(org.settings->'bumpOfferIds') = 'array'
                                     THEN org.settings->'bumpOfferIds' ELSE '[]'::jsonb END) x))) bo),
                '[]'::json) AS bump_offers,
       EXISTS (SELECT 1 FROM checkout_link_upsells u
                WHERE u.organization_id = c.organization_id AND u.checkout_link_id = c.checkout_link_id) AS has_upsells`;
const FROM = `
  FROM carts c
  JOIN organizations org ON org.id = c.organization_id`;
// The places of an address ($3 to $6) come along when the caller knows the address before reading the cart.
const SELECT = `${COLUMNS}${FROM}`;
const SELECT_WITH_PLACES = `${COLUMNS},
       ${addressPlacesSql('$1', 3)} AS places${FROM}`;

/**
 * The cart of an organization by its token or id, with its organization, lines (offer and gift details), discount
 * code, customer and addresses, order and last payment method; with `places`, what pricing may read for that address
 * (shipping profiles, tax rates) in the same statement. With `lock`, the cart row is locked FOR UPDATE for the
 * caller's transaction first (writers of one cart queue there), in a statement of its own: a snapshot read in the
 * locking statement would still show what the writer ahead in the queue changed in other tables (its order, its
 * lines) as it was before that writer committed. So the snapshot is read only once the lock is held. Null when the
 * organization has no such cart.
 */
export async function loadCartSnapshot(
  db: Queryable,
  organizationId: number,
  key: { token: string } | { id: number },
  options: { lock?: boolean; places?: PricingAddress | undefined } = {},
): Promise<CartSnapshot | null> {
  const where = 'token' in key ? 'c.token = $2' : 'c.id = $2';
  const params = [organizationId, 'token' in key ? key.token : key.id];
  if (options.lock) {
    const locked = await db.query(
      `SELECT 1 FROM carts c WHERE c.organization_id = $1 AND ${where} FOR UPDATE`,
      params,
    );
    if (locked.rows.length === 0) return null;
  }
  const address = options.places;
  const { rows } = await db.query<SnapshotRow>(
    `${address ? SELECT_WITH_PLACES : SELECT} WHERE c.organization_id = $1 AND ${where}`,
    address ? [...params, ...addressPlacesParams(address)] : params,
  );
  const row = rows[0];
  if (!row) return null;
  const cart = withDates<CartRow>(row.cart, CART_DATES);
  const organization = withDates<OrganizationRow>(row.organization, ORGANIZATION_DATES);
  // The merchant's text in the cart's language, read by its view, its order's lines and their emails alike
  // (docs/api.md, "Translations"): the shopper's choice, else the store's default (the base text).
  const language = cart.language ?? settingsOf(organization).languages.default;
  const localized = <Line extends Pick<OfferRow, TranslatedOfferField | 'item_options' | 'translations'>>(
    line: Line,
  ) => ({
    ...localizedFields(line, line.translations, language, TRANSLATED_OFFER_FIELDS),
    item_options: [...localizedItemOptions(line.item_options, line.translations, language)],
  });
  const localizedBump = (offer: BumpOfferRow) =>
    localizedFields(offer, offer.translations, language, BUMP_FIELDS);
  return {
    cart,
    organization,
    // A subscribed line is priced, ordered and billed as a recurring line from here on (docs/subscriptions.md).
    lines: row.lines.map((line) => pricedAsChosen(localized(line))),
    discountCode: row.discount_code ? withDates<DiscountCodeRow>(row.discount_code, CODE_DATES) : null,
    customer: row.customer,
    addresses: row.addresses,
    order: row.order ? withDates<OrderRow>(row.order, ORDER_DATES) : null,
    lastPaymentMethod: row.last_payment_method,
    giftFrom: row.gift_from,
    linkBumpOfferIds: row.link_bump_offer_ids,
    bumpOffers: row.bump_offers.map(localizedBump),
    hasUpsells: row.has_upsells,
    ...(address && row.places ? { places: parseAddressPlaces(address, row.places) } : {}),
  };
}
