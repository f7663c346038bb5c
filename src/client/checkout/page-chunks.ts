// The chunks every open checkout renders at once: the checkout view and the payment step (every shopper pays, and a
// page that opens at payment shows it first). They load beside the handshake, which takes longer.
import { preloadedLazy } from '../ui/preloaded-lazy.js';
import { paymentStepChunk } from './payment/payment-step-chunk.js';

export const checkoutViewChunk = preloadedLazy(() => import('./checkout-view.js'));

/** The order-bump boxes: fetched only for a cart that has bumps, so other checkouts never load them. */
export const bumpOffersChunk = preloadedLazy(() => import('./bumps/bump-offers.js'));

/** Starts both at once (not one after the other): each is a round trip of its own on a slow network. */
export function preloadPageChunks(): void {
  void Promise.all([checkoutViewChunk.preload(), paymentStepChunk.preload()]).catch(() => undefined);
}

/** Starts the order-bump boxes' chunk once the cart is known to have bumps, so they are there with the payment step. */
export function preloadBumpOffers(): void {
  void bumpOffersChunk.preload().catch(() => undefined);
}
