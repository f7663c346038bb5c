import type { CardProcessorConfig } from '../../../../contract/page-config.js';
import type { CardProcessor } from './card-processor.js';

export type LoadCardProcessor = (config: CardProcessorConfig) => Promise<CardProcessor>;

/**
 * The configured processor's page adapter, each a chunk of its own loaded only when the page config names it
 * (docs/payments.md, "The page adapter"): the checkout's first load carries neither, and Stripe.js is fetched from
 * js.stripe.com only when Stripe is the processor.
 */
export const loadCardProcessor: LoadCardProcessor = async (config) => {
  switch (config.name) {
    case 'test': {
      const { createTestProcessor } = await import('./test-processor.js');
      return createTestProcessor(config);
    }
    case 'stripe': {
      const { createStripeProcessor } = await import('./stripe-processor.js');
      return createStripeProcessor(config);
    }
  }
};
