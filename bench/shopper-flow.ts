import { orderBody as shopperOrder } from '../tests/helpers/order-body.js';
import type { FlowState, FlowStep } from './load.js';

/** The demo organization's test card (src/server/modules/demo/demo-store.ts): approved by the test gateway. */
export const DEMO_TEST_CARD = '4242424242424242';
const SHOPPER = '/checkout/api/vrio';
const PREVIEW_QUERY = 'ship_country=US&ship_state=TX&ship_zipcode=73301&same_address=true';

function json(body: string): Record<string, unknown> | null {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const shopperHeaders = (state: FlowState) => ({
  authorization: `Bearer ${state.values.access ?? ''}`,
  'csrf-token': state.values.csrf ?? '',
});

export function cartPath(token: string): string {
  return `${SHOPPER}/carts/${token}`;
}

export function previewPath(token: string): string {
  return `${SHOPPER}/carts/${token}/preview?${PREVIEW_QUERY}`;
}

/**
 * The card token each cart's shopper typed into the test processor's frame, made before the run (makeCardTokens):
 * tokenizing is the processor's work on its own origin (Stripe's, in production), not a request to the checkout.
 */
const cardTokens = new Map<string, string>();

/** Tokenizes the demo test card at the test processor, once per cart, as each shopper's frame would. */
export async function makeCardTokens(processorUrl: string, carts: readonly string[]): Promise<void> {
  const origin = new URL(processorUrl).origin;
  for (const cart of carts) {
    const response = await fetch(`${origin}/v1/tokens`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({
        number: DEMO_TEST_CARD,
        cvv: '123',
        exp_month: 12,
        exp_year: 2030,
        test_cards: [DEMO_TEST_CARD],
      }),
    });
    const answer = (await response.json()) as { token?: string };
    if (!response.ok || !answer.token)
      throw new Error(`tokens: ${response.status} ${JSON.stringify(answer)}`);
    cardTokens.set(cart, answer.token);
  }
}

/** What the page sends to place an order in Austin, Texas (the tests' shopper), paid by the demo test card's token. */
export function orderBody(cartToken: string): string {
  return JSON.stringify(
    shopperOrder(cartToken, { payment: { method: 'card', card_token: cardTokens.get(cartToken) ?? '' } }),
  );
}

/** The page's whole path through the API: CSRF token, access token, cart, tax and shipping preview, order. */
export const SHOPPER_FLOW: FlowStep[] = [
  {
    name: 'csrf',
    method: 'POST',
    path: () => '/checkout/api/csrf',
    headers: () => ({}),
    body: () => '{}',
    accept(status, body, state) {
      const token = json(body)?.csrfToken;
      if (status !== 200 || typeof token !== 'string') return false;
      state.values.csrf = token;
      return true;
    },
  },
  {
    name: 'authorize',
    method: 'POST',
    path: () => '/checkout/api/authorize',
    headers: (state) => ({ 'csrf-token': state.values.csrf ?? '' }),
    body: () => JSON.stringify({ organization: 'demo' }),
    accept(status, body, state) {
      const token = json(body)?.access_token;
      if (status !== 200 || typeof token !== 'string') return false;
      state.values.access = token;
      return true;
    },
  },
  {
    name: 'cart',
    method: 'GET',
    path: (state) => cartPath(state.cart),
    headers: shopperHeaders,
    accept: (status) => status === 200,
  },
  {
    name: 'preview',
    method: 'GET',
    path: (state) => previewPath(state.cart),
    headers: shopperHeaders,
    accept: (status) => status === 200,
  },
  {
    name: 'order',
    method: 'POST',
    path: () => `${SHOPPER}/orders`,
    headers: (state) => ({ ...shopperHeaders(state), 'idempotency-key': `bench-${state.cart}` }),
    body: (state) => orderBody(state.cart),
    accept(status, body) {
      const order = json(body)?.order as { status?: string } | undefined;
      return status === 200 && order?.status === 'complete';
    },
  },
];
