import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeShopperApi, previewAnswerFor } from '../../testing/fake-shopper-api.js';
import { cartFixture, US_PROFILES } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

/** Opens the shipping section of a cart whose contact is saved. */
async function openShipping(
  api = createFakeShopperApi(
    cartFixture({ customer: { ...cartFixture().customer, email: 'ada@example.com' } }),
  ),
) {
  const view = renderCheckout({ api, cart: api.cart });
  await screen.findByLabelText('Country or region');
  // The country's fields come with the address data's chunk.
  await screen.findByLabelText('First name');
  return view;
}

describe('shipping section', () => {
  it('asks for the country first and autofills every address field', async () => {
    await openShipping();
    const labels = screen
      .getAllByRole('textbox')
      .concat(screen.getAllByRole('combobox'))
      .map((element) => element.getAttribute('autocomplete'));
    expect(labels).toEqual(
      expect.arrayContaining([
        'shipping given-name',
        'shipping family-name',
        'shipping address-line1',
        'shipping address-line2',
        'shipping address-level2',
        'shipping postal-code',
        'shipping country',
        'shipping address-level1',
      ]),
    );
    const form = screen.getByLabelText('Country or region').closest('form') as HTMLElement;
    const fields = within(form).getAllByRole('combobox');
    expect(fields[0]).toBe(screen.getByLabelText('Country or region'));
    expect(screen.getByLabelText('ZIP code').getAttribute('inputmode')).toBe('numeric');
  });

  it("offers a state list where the country has states, and names the postal code the country's way", async () => {
    const { user } = await openShipping();
    expect(screen.getByRole('combobox', { name: 'State' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Country or region'), 'GB');
    expect(screen.queryByRole('combobox', { name: 'State' })).toBeNull();
    expect(screen.getByLabelText('Postal code').getAttribute('inputmode')).toBe('text');
    await user.selectOptions(screen.getByLabelText('Country or region'), 'CA');
    expect(screen.getByRole('combobox', { name: 'Province' })).toBeTruthy();
  });

  it("checks the postal code against the country's format when the field loses focus", async () => {
    const { user } = await openShipping();
    await user.type(screen.getByLabelText('ZIP code'), '7330');
    await user.tab();
    await screen.findByText('Enter a ZIP code like 95014.');
  });

  it("asks for the preview once the shopper pauses, with a version and 'null' for empty values", async () => {
    const { user, api } = await openShipping();
    await user.type(screen.getByLabelText('ZIP code'), '73301');
    await waitFor(() =>
      expect(api.requestsTo('GET', /\/preview$/).some((r) => r.query.get('ship_zipcode') === '73301')).toBe(
        true,
      ),
    );
    const previews = api.requestsTo('GET', /\/preview$/);
    // debounced: not one request per key stroke
    expect(previews.filter((r) => r.query.get('ship_zipcode')?.startsWith('733')).length).toBeLessThan(3);
    const last = previews.at(-1);
    expect(last?.query.get('ship_country')).toBe('US');
    expect(last?.query.get('ship_city')).toBe('null');
    expect(last?.query.get('shipping_profile_id')).toBe('null');
    expect(last?.query.get('same_address')).toBe('true');
    expect(Number(last?.query.get('version'))).toBeGreaterThan(0);
  });

  it('shows the shipping methods the preview answers and takes the one the server chose', async () => {
    const cart = cartFixture({ customer: { ...cartFixture().customer, email: 'ada@example.com' } });
    const api = createFakeShopperApi(cart);
    api.on('GET', /\/preview$/, (request) => ({
      status: 200,
      body: previewAnswerFor(cart, request.query.get('version'), {
        order: { ...cart.order, shipping_profiles: US_PROFILES, shipping_profile_id: '1' },
        total_campaign_shipping: 5,
        total: 23,
      }),
    }));
    const { user } = await openShipping(api);
    const standard = await screen.findByRole('radio', { name: /Standard \(3-5 days\)/ });
    await waitFor(() => expect((standard as HTMLInputElement).checked).toBe(true));
    await user.click(screen.getByRole('radio', { name: /Express/ }));
    await waitFor(() =>
      expect(
        api.requestsTo('GET', /\/preview$/).some((r) => r.query.get('shipping_profile_id') === '2'),
      ).toBe(true),
    );
  });

  it('applies only the answer to the latest request', async () => {
    const cart = cartFixture({ customer: { ...cartFixture().customer, email: 'ada@example.com' } });
    const api = createFakeShopperApi(cart);
    let release: (() => void) | null = null;
    let staleAnswered = false;
    api.on('GET', /\/preview$/, async (request) => {
      const zip = request.query.get('ship_zipcode');
      if (zip === '10001') {
        // The older question is answered last.
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        staleAnswered = true;
        return {
          status: 200,
          body: previewAnswerFor(cart, request.query.get('version'), { total_tax: 9.99, total: 27.99 }),
        };
      }
      return {
        status: 200,
        body: previewAnswerFor(cart, request.query.get('version'), { total_tax: 1.49, total: 19.49 }),
      };
    });
    const { user } = await openShipping(api);
    await user.type(screen.getByLabelText('ZIP code'), '10001');
    await waitFor(() => expect(release).not.toBeNull());
    await user.clear(screen.getByLabelText('ZIP code'));
    await user.type(screen.getByLabelText('ZIP code'), '73301');
    await waitFor(() => expect(screen.getAllByText('$19.49').length).toBeGreaterThan(0));
    (release as unknown as () => void)();
    await waitFor(() => expect(staleAnswered).toBe(true));
    // the stale answer ($27.99) has been read by now (one macrotask later) and never replaces the latest one
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('$27.99')).toBeNull();
    expect(screen.getAllByText('$19.49').length).toBeGreaterThan(0);
  });

  it('says when the totals could not be updated, and clears it once a later address is answered', async () => {
    const cart = cartFixture({ customer: { ...cartFixture().customer, email: 'ada@example.com' } });
    const api = createFakeShopperApi(cart);
    api.on('GET', /\/preview$/, (request) =>
      request.query.get('ship_zipcode') === '10001'
        ? { status: 503, body: { status: 503, code: 'unavailable', message: 'The store is busy.' } }
        : {
            status: 200,
            body: previewAnswerFor(cart, request.query.get('version'), { total_tax: 1.49, total: 19.49 }),
          },
    );
    const { user } = await openShipping(api);
    await user.type(screen.getByLabelText('ZIP code'), '10001');
    const warning = await screen.findByText(/^The totals could not be updated for this address:/);
    expect(warning.getAttribute('role')).toBe('status');
    await user.clear(screen.getByLabelText('ZIP code'));
    await user.type(screen.getByLabelText('ZIP code'), '73301');
    await waitFor(() => expect(screen.getAllByText('$19.49').length).toBeGreaterThan(0));
    expect(screen.queryByText(/The totals could not be updated/)).toBeNull();
  });

  it("shows the server's notice when the chosen method was replaced", async () => {
    const cart = cartFixture({ customer: { ...cartFixture().customer, email: 'ada@example.com' } });
    const api = createFakeShopperApi(cart);
    api.on('GET', /\/preview$/, (request) => ({
      status: 200,
      body: {
        ...previewAnswerFor(cart, request.query.get('version'), {
          order: { ...cart.order, shipping_profiles: [US_PROFILES[0]!], shipping_profile_id: '1' },
        }),
        notice: {
          code: 'shipping_profile_replaced',
          message: 'Express does not ship there: Standard was chosen.',
        },
      },
    }));
    await openShipping(api);
    await screen.findByText('Express does not ship there: Standard was chosen.');
  });

  it('validates the whole address on Continue and lists what to fix', async () => {
    const { user } = await openShipping();
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Enter a first name.');
    expect(alert.textContent).toContain('Choose a state.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('First name')));
  });
});
