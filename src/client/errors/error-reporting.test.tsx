import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFakeShopperApi } from '../testing/fake-shopper-api.js';
import { cartFixture } from '../testing/fixtures.js';
import { renderCheckout } from '../testing/render-checkout.js';

vi.mock('../checkout/contact/contact-section.js', () => ({
  ContactSection: () => {
    throw new Error('Could not read card 4111 1111 1111 1111');
  },
  ContactSummary: () => null,
}));

describe('error reporting', () => {
  it('reports a render error to the server with the card number scrubbed when no DSN is configured', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = createFakeShopperApi(cartFixture());
    renderCheckout({ api });
    await screen.findByText('Something went wrong on this page');
    await waitFor(() => expect(api.requestsTo('POST', /\/client-errors$/)).toHaveLength(1));
    const [report] = api.requestsTo('POST', /\/client-errors$/);
    expect(report?.body?.message).toBe('Error: Could not read card [card ••••1111]');
    expect(JSON.stringify(report?.body)).not.toMatch(/4111 1111 1111 1111|4111111111111111/);
    expect(report?.body).toMatchObject({ cart_token: api.cart.cart_token, _is_vrio_checkout: 1 });
    quiet.mockRestore();
  });

  it('sends the report to a configured Sentry-compatible DSN instead', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = createFakeShopperApi(cartFixture());
    api.on('POST', /\/api\/9\/store\/$/, () => ({ status: 200, body: { id: 'x' } }));
    renderCheckout({ api, config: { error_reporting_dsn: 'https://public@errors.example.com/9' } });
    await screen.findByText('Something went wrong on this page');
    await waitFor(() => expect(api.requestsTo('POST', /\/api\/9\/store\/$/)).toHaveLength(1));
    expect(api.requestsTo('POST', /\/client-errors$/)).toHaveLength(0);
    const [event] = api.requestsTo('POST', /\/api\/9\/store\/$/);
    expect(event?.query.get('sentry_key')).toBe('public');
    expect(JSON.stringify(event?.body)).not.toContain('4111 1111');
    quiet.mockRestore();
  });
});
