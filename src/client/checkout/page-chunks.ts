// The chunks every open checkout renders at once: the checkout view and the payment step (every shopper pays, and a
// page that opens at payment shows it first). They load beside the handshake, which takes longer.
import { preloadedLazy } from '../ui/preloaded-lazy.js';
import { paymentStepChunk } from './payment/payment-step-chunk.js';

export const checkoutViewChunk = preloadedLazy(() => import('./checkout-view.js'));

/** Starts both at once (not one after the other): each is a round trip of its own on a slow network. */
export function preloadPageChunks(): void {
  void Promise.all([checkoutViewChunk.preload(), paymentStepChunk.preload()]).catch(() => undefined);
}
