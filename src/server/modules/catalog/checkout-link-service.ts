import type {
  CheckoutLink,
  CreateCheckoutLink,
  UpdateCheckoutLink,
  UpsellStepInput,
} from '../../../contract/merchant.js';
import { upsellStepProblems } from '../upsells/upsell-decisions.js';
import { findOffers } from './offers-repository.js';
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from '../../platform/db/database.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import {
  findCheckoutLink,
  insertCheckoutLink,
  listCheckoutLinks,
  updateCheckoutLink,
  type CheckoutLinkLine,
  type CheckoutLinkRow,
  type CheckoutLinkUpsell,
} from './checkout-links-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import {
  checkCartLines,
  checkDiscountCodeExists,
  checkSubscribeChoices,
  type CheckedLine,
} from '../carts/cart-lines.js';
import { checkBumpOffers } from './bump-offers.js';
import { iso } from '../../platform/http/money-input.js';
import { newCheckoutLinkId } from '../../platform/security/secrets.js';

export const CHECKOUT_LINK_PREFIX = '__c__';

export function presentCheckoutLink(row: CheckoutLinkRow, publicUrl: string): CheckoutLink {
  const cartToken = `${CHECKOUT_LINK_PREFIX}${row.public_id}`;
  return {
    id: row.id,
    public_id: row.public_id,
    cart_token: cartToken,
    checkout_url: `${publicUrl}/checkout/${cartToken}`,
    name: row.name,
    offers: row.offers,
    bump_offer_ids: row.bump_offer_ids.map(Number),
    discount_code: row.discount_code,
    active: row.active,
    expires_at: iso(row.expires_at ? new Date(row.expires_at) : null),
    upsells: row.upsells.map((step) => ({
      offer_id: step.offer_id,
      downsell_offer_id: step.downsell_offer_id,
    })),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function createCheckoutLink(
  db: Queryable,
  organization: OrganizationRow,
  input: CreateCheckoutLink,
  publicUrl: string,
): Promise<CheckoutLink> {
  const fields: Record<string, string> = {};
  const lines = await checkCartLines(db, organization.id, input.offers, fields);
  const subscribed = checkSubscribeChoices(input.offers, lines, fields);
  const code = await checkDiscountCodeExists(db, organization.id, input.discount_code, fields);
  const bumpOfferIds = input.bump_offer_ids ?? [];
  await checkBumpOffers(
    db,
    organization.id,
    bumpOfferIds,
    input.offers.map((line) => line.offer_id),
    fields,
  );
  const upsells = await checkUpsells(db, organization.id, input.upsells, fields);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  const publicId = input.public_id ?? newCheckoutLinkId();
  try {
    const row = await insertCheckoutLink(
      db,
      organization.id,
      publicId,
      {
        name: input.name ?? '',
        discount_code: code?.code ?? null,
        active: input.active ?? true,
        expires_at: input.expires_at ? new Date(input.expires_at) : null,
      },
      linkLines(lines, subscribed),
      bumpOfferIds,
      upsells ?? [],
    );
    return presentCheckoutLink(row, publicUrl);
  } catch (error) {
    if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
      throw new AppError(
        409,
        'checkout_link_exists',
        `The link id ${publicId} is taken; choose another public_id.`,
      );
    }
    throw error;
  }
}

export async function changeCheckoutLink(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  patch: UpdateCheckoutLink,
  publicUrl: string,
  now: Date,
): Promise<CheckoutLink> {
  const fields: Record<string, string> = {};
  const lines =
    patch.offers === undefined ? undefined : await checkCartLines(db, organization.id, patch.offers, fields);
  const subscribed = patch.offers && lines ? checkSubscribeChoices(patch.offers, lines, fields) : [];
  const code = await checkDiscountCodeExists(db, organization.id, patch.discount_code, fields);
  if (patch.bump_offer_ids !== undefined || patch.offers !== undefined) {
    // The bumps and the lines as they will be: a bump may not also be a line of the link.
    const existing = await findCheckoutLink(db, organization.id, id);
    if (!existing) throw notFound('checkout_link_not_found', `There is no checkout link ${id}.`);
    await checkBumpOffers(
      db,
      organization.id,
      patch.bump_offer_ids ?? existing.bump_offer_ids.map(Number),
      (patch.offers ?? existing.offers).map((line) => line.offer_id),
      fields,
    );
  }
  const upsells = await checkUpsells(db, organization.id, patch.upsells, fields);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  const row = await updateCheckoutLink(
    db,
    organization.id,
    id,
    {
      name: patch.name,
      discount_code: patch.discount_code === undefined ? undefined : (code?.code ?? null),
      active: patch.active,
      expires_at:
        patch.expires_at === undefined
          ? undefined
          : patch.expires_at === null
            ? null
            : new Date(patch.expires_at),
    },
    lines && linkLines(lines, subscribed),
    now,
    patch.bump_offer_ids,
    upsells,
  );
  if (!row) throw notFound('checkout_link_not_found', `There is no checkout link ${id}.`);
  return presentCheckoutLink(row, publicUrl);
}

/** The checked lines as the link keeps them, each with whether it starts subscribed. */
function linkLines(lines: readonly CheckedLine[], subscribed: readonly boolean[]): CheckoutLinkLine[] {
  return lines.map((line, index) => ({
    offer_id: line.offer.id,
    quantity: line.quantity,
    is_gift: line.is_gift,
    subscribe: subscribed[index] ?? false,
  }));
}

/** A link's upsell steps once each names an active offer of the organization; problems go into `fields`. */
async function checkUpsells(
  db: Queryable,
  organizationId: number,
  steps: readonly UpsellStepInput[] | undefined,
  fields: Record<string, string>,
): Promise<CheckoutLinkUpsell[] | undefined> {
  if (steps === undefined) return undefined;
  const ids = steps.flatMap((step) => [
    step.offer_id,
    ...(step.downsell_offer_id ? [step.downsell_offer_id] : []),
  ]);
  const offers = new Map((await findOffers(db, organizationId, ids)).map((offer) => [offer.id, offer]));
  Object.assign(fields, upsellStepProblems(steps, offers));
  return steps.map((step) => ({
    offer_id: step.offer_id,
    downsell_offer_id: step.downsell_offer_id ?? null,
  }));
}

export async function getCheckoutLink(
  db: Queryable,
  organization: OrganizationRow,
  id: number,
  publicUrl: string,
): Promise<CheckoutLink> {
  const row = await findCheckoutLink(db, organization.id, id);
  if (!row) throw notFound('checkout_link_not_found', `There is no checkout link ${id}.`);
  return presentCheckoutLink(row, publicUrl);
}

export async function listCheckoutLinkPage(
  db: Queryable,
  organization: OrganizationRow,
  options: { limit?: number | undefined; startingAfter?: number | undefined },
  publicUrl: string,
): Promise<{ data: CheckoutLink[]; has_more: boolean }> {
  const page = await listCheckoutLinks(db, organization.id, options);
  return { data: page.rows.map((row) => presentCheckoutLink(row, publicUrl)), has_more: page.hasMore };
}
