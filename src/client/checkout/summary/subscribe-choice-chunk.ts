import { preloadedLazy } from '../../ui/preloaded-lazy.js';

/** Buy once or subscribe and save: loaded only for a cart with a line that offers it (docs/subscriptions.md). */
export const subscribeChoiceChunk = preloadedLazy(() => import('./subscribe-choice.js'));
