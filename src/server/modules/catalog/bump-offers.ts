import { checkBumpOfferIds } from '../../../domain/order-bumps.js';
import type { Queryable } from '../../platform/db/database.js';
import { findOffers } from './offers-repository.js';

/**
 * Checks a merchant's list of bump offers (a link's or the organization's default) against the organization's
 * offers; problems are added to fields under bump_offer_ids (checkBumpOfferIds). `lineOfferIds`: the link's lines.
 */
export async function checkBumpOffers(
  db: Queryable,
  organizationId: number,
  ids: readonly number[],
  lineOfferIds: readonly number[],
  fields: Record<string, string>,
): Promise<void> {
  const offers = await findOffers(db, organizationId, ids);
  Object.assign(fields, checkBumpOfferIds(ids, offers, lineOfferIds));
}
