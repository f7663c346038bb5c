// The catalogue's server state (docs/dashboard.md, "Catalogue"): one key per thing it reads, and its readers.
import { CheckoutLinkPreviewSchema } from '../../../contract/checkout-link-preview.js';
import {
  CheckoutLinkListSchema,
  CheckoutLinkSchema,
  DiscountCodeListSchema,
  DiscountCodeSchema,
  OfferListSchema,
  OfferSchema,
} from '../../../contract/merchant.js';
import { StoreLanguagesSchema } from '../../../contract/organization.js';
import { z } from '../../../contract/zod.js';
import { request } from '../admin-api.js';
import { PAGE_SIZE } from '../kit/paged-list.js';

const BASE = '/checkout/api/merchant';

export const CATALOGUE_KEY = ['catalogue'] as const;
export const offersKey = ['catalogue', 'offers'] as const;
export const offerKey = (id: number) => ['catalogue', 'offer', id] as const;
export const codesKey = ['catalogue', 'discount-codes'] as const;
export const codeKey = (id: number) => ['catalogue', 'discount-code', id] as const;
export const linksKey = ['catalogue', 'checkout-links'] as const;
export const linkKey = (id: number) => ['catalogue', 'checkout-link', id] as const;
export const previewKey = (id: number) => ['catalogue', 'checkout-link-preview', id] as const;
export const STORE_KEY = ['catalogue', 'store'] as const;

const pageQuery = (startingAfter: number | undefined, limit = PAGE_SIZE) =>
  `?limit=${limit}${startingAfter === undefined ? '' : `&starting_after=${startingAfter}`}`;

export const readOffers = (startingAfter?: number, limit?: number) =>
  request(OfferListSchema, 'GET', `${BASE}/offers${pageQuery(startingAfter, limit)}`);
export const readOffer = (id: number) => request(OfferSchema, 'GET', `${BASE}/offers/${id}`);
export const readCodes = (startingAfter?: number) =>
  request(DiscountCodeListSchema, 'GET', `${BASE}/discount-codes${pageQuery(startingAfter)}`);
export const readCode = (id: number) => request(DiscountCodeSchema, 'GET', `${BASE}/discount-codes/${id}`);
export const readLinks = (startingAfter?: number) =>
  request(CheckoutLinkListSchema, 'GET', `${BASE}/checkout-links${pageQuery(startingAfter)}`);
export const readLink = (id: number) => request(CheckoutLinkSchema, 'GET', `${BASE}/checkout-links/${id}`);
export const readPreview = (id: number) =>
  request(CheckoutLinkPreviewSchema, 'GET', `${BASE}/checkout-links/${id}/preview`);

/** The store's currency and languages (the organization, which staff may read). */
export const readStore = () =>
  request(z.object({ currency: z.string(), languages: StoreLanguagesSchema }), 'GET', `${BASE}/organization`);

export const saveOffer = (id: number | null, body: Record<string, unknown>) =>
  id === null
    ? request(OfferSchema, 'POST', `${BASE}/offers`, body)
    : request(OfferSchema, 'PATCH', `${BASE}/offers/${id}`, body);
export const saveCode = (id: number | null, body: Record<string, unknown>) =>
  id === null
    ? request(DiscountCodeSchema, 'POST', `${BASE}/discount-codes`, body)
    : request(DiscountCodeSchema, 'PATCH', `${BASE}/discount-codes/${id}`, body);
export const saveLink = (id: number | null, body: Record<string, unknown>) =>
  id === null
    ? request(CheckoutLinkSchema, 'POST', `${BASE}/checkout-links`, body)
    : request(CheckoutLinkSchema, 'PATCH', `${BASE}/checkout-links/${id}`, body);
