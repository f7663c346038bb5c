import { preloadedLazy } from '../../ui/preloaded-lazy.js';

/** The payment step's chunk: card fields, the order button and the order's answers (page-chunks.ts loads it early). */
export const paymentStepChunk = preloadedLazy(() => import('./payment-step.js'));
