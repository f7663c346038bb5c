import type { Database, Queryable } from '../../platform/db/database.js';
import {
  findOrganizationByPublicId,
  type OrganizationRow,
} from '../organizations/organizations-repository.js';
import { insertCheckoutLink } from '../catalog/checkout-links-repository.js';
import { insertDiscountCode } from '../catalog/discount-codes-repository.js';
import { insertOffer, type OfferValues } from '../catalog/offers-repository.js';
import { insertShippingProfile } from '../catalog/shipping-profiles-repository.js';
import { insertTaxRate } from '../catalog/tax-rates-repository.js';
import { CART_LIFETIME_MS, createMerchantCart } from '../carts/merchant-cart-service.js';
import { addApiKey, createOrganization } from '../organizations/organization-service.js';

export const DEMO_ORGANIZATION = 'demo';
export const DEMO_TEST_CARD = '4242424242424242';

const offer = (
  values: Partial<OfferValues> & Pick<OfferValues, 'offer_name' | 'item_name' | 'price'>,
): OfferValues => ({
  offer_title: '',
  item_id: '',
  item_image: null,
  item_category: '',
  item_options: [],
  override_initial_item_id: null,
  override_initial_item_name: null,
  is_recurring: false,
  billing_interval_days: null,
  next_price: null,
  trial_days: null,
  discounted_cycles: null,
  discounted_price: null,
  total_cycles: null,
  prepaid_cycles: null,
  prepaid_renewal: null,
  is_giftable: false,
  is_taxable: true,
  requires_shipping: true,
  shipping_price: 0,
  digital_access: null,
  subscribe_interval_days: null,
  subscribe_percent_off: null,
  bump_text: null,
  translations: {},
  active: true,
  ...values,
});

/** The demo store: a small coffee roaster with one-off, subscription and gift offers. Created once. */
async function seedDemoCatalog(tx: Queryable, organization: OrganizationRow): Promise<void> {
  const org = organization.id;
  const beans = await insertOffer(
    tx,
    org,
    offer({
      offer_name: 'Single-origin beans',
      offer_title: 'Ethiopia Yirgacheffe',
      item_id: 'BEANS-ETH-340',
      item_name: 'Ethiopia Yirgacheffe coffee beans',
      item_image: '/checkout/images/coffee-beans.svg',
      item_category: 'Coffee',
      item_options: [
        { name: 'Size', value: '340 g' },
        { name: 'Grind', value: 'Whole bean' },
      ],
      price: 1800,
    }),
  );
  const subscription = await insertOffer(
    tx,
    org,
    offer({
      offer_name: 'Coffee club',
      offer_title: 'Two bags every month',
      item_id: 'CLUB-2',
      item_name: 'Coffee club subscription',
      item_image: '/checkout/images/coffee-club.svg',
      item_category: 'Subscriptions',
      item_options: [{ name: 'Bags', value: '2 × 340 g' }],
      override_initial_item_id: 'CLUB-STARTER',
      override_initial_item_name: 'Coffee club starter kit',
      price: 2900,
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 2500,
      is_giftable: true,
    }),
  );
  const mug = await insertOffer(
    tx,
    org,
    offer({
      offer_name: 'Stoneware mug',
      item_id: 'MUG-350',
      item_name: 'Stoneware mug',
      item_image: '/checkout/images/mug.svg',
      item_category: 'Gear',
      item_options: [{ name: 'Color', value: 'Navy' }],
      price: 1400,
      is_giftable: true,
      shipping_price: 200,
    }),
  );
  const guide = await insertOffer(
    tx,
    org,
    offer({
      offer_name: 'Brewing guide',
      item_id: 'GUIDE-PDF',
      item_name: 'Home brewing guide (PDF)',
      item_image: '/checkout/images/guide.svg',
      item_category: 'Digital',
      price: 900,
      is_taxable: false,
      requires_shipping: false,
    }),
  );

  const code = (values: Partial<Parameters<typeof insertDiscountCode>[2]> & { code: string }) => ({
    kind: 'percent' as const,
    percent_off_bp: null,
    amount_off: null,
    starts_at: null,
    ends_at: null,
    usage_limit: null,
    min_subtotal: 0,
    active: true,
    ...values,
  });
  await insertDiscountCode(tx, org, code({ code: 'WELCOME10', percent_off_bp: 1000 }), []);
  await insertDiscountCode(
    tx,
    org,
    code({ code: 'SAVE5', kind: 'fixed', amount_off: 500, min_subtotal: 3000 }),
    [],
  );
  await insertDiscountCode(tx, org, code({ code: 'MUGLOVE', percent_off_bp: 2500 }), [mug.id]);
  await insertDiscountCode(
    tx,
    org,
    code({ code: 'ONTHEHOUSE', percent_off_bp: 10000, usage_limit: 100 }),
    [],
  );
  await insertDiscountCode(
    tx,
    org,
    code({
      code: 'SUMMER24',
      percent_off_bp: 1500,
      starts_at: new Date('2024-06-01T00:00:00Z'),
      ends_at: new Date('2024-09-01T00:00:00Z'),
    }),
    [],
  );

  await insertShippingProfile(tx, org, {
    name: 'Standard (3-5 days)',
    countries: ['US'],
    price: 500,
    free_over: 5000,
    active: true,
  });
  await insertShippingProfile(tx, org, {
    name: 'Express (1-2 days)',
    countries: ['US'],
    price: 1500,
    free_over: null,
    active: true,
  });
  await insertShippingProfile(tx, org, {
    name: 'International',
    countries: ['CA', 'GB', 'IE', 'DE', 'FR', 'NL', 'AU', 'NZ', 'MX'],
    price: 2000,
    free_over: 15000,
    active: true,
  });

  for (const [country, state, ratePpm, name] of [
    ['US', 'TX', 82_500, 'Texas sales tax'],
    ['US', 'CA', 72_500, 'California sales tax'],
    ['US', 'NY', 88_750, 'New York sales tax'],
    ['US', 'WA', 65_000, 'Washington sales tax'],
    ['CA', null, 50_000, 'GST'],
    ['GB', null, 200_000, 'VAT'],
    ['DE', null, 190_000, 'MwSt'],
    ['FR', null, 200_000, 'TVA'],
    ['AU', null, 100_000, 'GST'],
  ] as const) {
    await insertTaxRate(tx, org, { country, state, rate_ppm: ratePpm, name });
  }

  const link = (
    publicId: string,
    name: string,
    lines: { offer_id: number; quantity: number; is_gift: boolean }[],
    discount: string | null = null,
  ) =>
    insertCheckoutLink(
      tx,
      org,
      publicId,
      { name, discount_code: discount, active: true, expires_at: null },
      lines.map((line) => ({ ...line, subscribe: false })),
    );
  await link('coffee', 'Beans and a mug', [
    { offer_id: beans.id, quantity: 1, is_gift: false },
    { offer_id: mug.id, quantity: 1, is_gift: false },
  ]);
  await link('club', 'Coffee club', [{ offer_id: subscription.id, quantity: 1, is_gift: false }]);
  await link('gift', 'Gift a coffee club membership', [
    { offer_id: subscription.id, quantity: 1, is_gift: true },
    { offer_id: mug.id, quantity: 1, is_gift: true },
  ]);
  await link('guide', 'Brewing guide', [{ offer_id: guide.id, quantity: 1, is_gift: false }], 'WELCOME10');
}

/**
 * Creates the demo organization and catalog on first start (never twice), makes sure the merchant key works, and
 * answers an open demo cart: the last one if it is still unordered, else a new one.
 */
export async function ensureDemoStore(
  db: Database,
  options: { apiKey: string; publicUrl: string; now: Date },
): Promise<{ created: boolean; checkoutUrl: string; organization: OrganizationRow }> {
  const { organization, created } = await db.transaction(async (tx) => {
    // Instances starting together on one PostgreSQL queue here, so only one seeds.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [727_274_002]);
    const existing = await findOrganizationByPublicId(tx, DEMO_ORGANIZATION);
    if (existing) {
      await addApiKey(tx, existing.id, options.apiKey, 'demo');
      return { organization: existing, created: false };
    }
    const made = await createOrganization(tx, {
      publicId: DEMO_ORGANIZATION,
      name: 'Northwind Coffee Roasters',
      currency: 'USD',
      apiKey: options.apiKey,
      settings: {
        clientOptions: {
          cart: { editable: { value: true, override: null } },
          testCards: [DEMO_TEST_CARD],
          subscriptionTermsCheckbox: { display: true, autoChecked: false },
          emailOptInCheckbox: { display: true, autoChecked: false },
        },
        legal: {
          refund_policy_url: 'https://example.com/refunds',
          terms_url: 'https://example.com/terms',
          privacy_url: 'https://example.com/privacy',
        },
      },
    });
    await seedDemoCatalog(tx, made.organization);
    return { organization: made.organization, created: true };
  });

  const { rows } = await db.query<{ token: string }>(
    `SELECT c.token FROM carts c
      WHERE c.organization_id = $1 AND c.source = 'demo' AND c.ordered_at IS NULL AND c.expires_at > $2
        AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.organization_id = c.organization_id AND o.cart_id = c.id)
      ORDER BY c.id DESC LIMIT 1`,
    [organization.id, new Date(options.now.getTime() + CART_LIFETIME_MS / 2)],
  );
  let token = rows[0]?.token;
  if (token === undefined) {
    // The merchant may have retired the demo offers; the demo checkout link still shows something then.
    const { rows: offers } = await db.query<{ id: number; item_id: string }>(
      `SELECT id, item_id FROM offers WHERE organization_id = $1 AND item_id IN ('BEANS-ETH-340', 'MUG-350') ORDER BY id`,
      [organization.id],
    );
    token = '__c__coffee';
    if (offers.length > 0) {
      const cart = await createMerchantCart(
        db,
        organization,
        { offers: offers.map((row) => ({ offer_id: row.id, quantity: 1 })) },
        { publicUrl: options.publicUrl, now: options.now, source: 'demo' },
      ).catch(() => null);
      if (cart) token = cart.cart_token;
    }
  }
  return { created, checkoutUrl: `${options.publicUrl}/checkout/${token}`, organization };
}
