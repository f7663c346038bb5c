import type { Cart } from '../../contract/cart.js';
import { PreviewResponseSchema } from '../../contract/cart.js';
import { OrderResponseSchema } from '../../contract/order.js';

/**
 * A stand-in for the shopper API in component tests (jsdom has no server). Every request is recorded; each route
 * answers from a handler a test may replace. Browser tests use the real server instead.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: RecordedRequest) => Answer | Promise<Answer>;

const json = (status: number, body?: unknown, headers: Record<string, string> = {}) => ({
  status,
  body,
  headers,
});

export function previewAnswerFor(cart: Cart, version: string | null, overrides: Partial<Cart> = {}) {
  const next = { ...cart, ...overrides };
  return PreviewResponseSchema.parse({
    version,
    order: next.order,
    customer: next.customer,
    offers: next.offers,
    subtotal: next.subtotal,
    subtotal_items: next.subtotal_items,
    total_discount: next.total_discount,
    total_tax: next.total_tax,
    total_campaign_shipping: next.total_campaign_shipping,
    total_offer_shipping: next.total_offer_shipping,
    total_gift_cards: next.total_gift_cards,
    total: next.total,
    preview: null,
    notice: null,
  });
}

export function completedOrder(cart: Cart, orderId = 1001) {
  return OrderResponseSchema.parse({
    ...cart,
    order: { ...cart.order, order_id: orderId, status: 'complete', completed_at: '2026-11-15T10:00:00.000Z' },
  });
}

export function createFakeShopperApi(initialCart: Cart) {
  let cart = initialCart;
  const requests: RecordedRequest[] = [];
  const routes: { method: string; pattern: RegExp; handler: Handler }[] = [];
  const on = (method: string, pattern: RegExp, handler: Handler) => {
    routes.unshift({ method, pattern, handler });
  };

  on('POST', /^\/checkout\/api\/csrf$/, () =>
    json(200, { csrfToken: 'csrf-token-1', csrfTokenExpiry: 3600 }),
  );
  on('POST', /^\/checkout\/api\/authorize$/, () =>
    json(200, { access_token: 'access-token-1', token_type: 'Bearer', expires_in: 3600 }),
  );
  on('GET', /^\/checkout\/api\/vrio\/carts\/[^/]+$/, () => json(200, cart));
  on('GET', /\/preview$/, (request) => json(200, previewAnswerFor(cart, request.query.get('version'))));
  on('POST', /^\/checkout\/api\/vrio\/client-errors$/, () => json(204));
  on('PUT', /^\/checkout\/api\/vrio\/carts\/[^/]+\/language$/, () => json(200, cart));

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) {
      headers[name.toLowerCase()] = value;
    }
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      body: init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined,
    };
    requests.push(request);
    const route = routes.find(
      (candidate) => candidate.method === request.method && candidate.pattern.test(url.pathname),
    );
    const answer = route
      ? await route.handler(request)
      : json(404, { status: 404, code: 'not_found', message: 'No route.' });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };

  return {
    fetch,
    requests,
    on,
    /** what later GET carts answer */
    setCart(next: Cart) {
      cart = next;
    },
    get cart() {
      return cart;
    },
    requestsTo(method: string, pattern: RegExp) {
      return requests.filter((request) => request.method === method && pattern.test(request.path));
    },
  };
}

export type FakeShopperApi = ReturnType<typeof createFakeShopperApi>;
