import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import { cartFixture, offerFixture, subscriptionOfferFixture } from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

const summary = async () => within(await screen.findByRole('complementary', { name: 'Order summary' }));

describe('order summary', () => {
  it('lists each line with its image, options, quantity and price, and every total', async () => {
    const cart = cartFixture({
      offers: [offerFixture({ id: 11, order_offer_quantity: 2, subtotal_offer: 36 })],
      subtotal: 36,
      total_discount: 3.6,
      discount_code: 'WELCOME10',
      total_campaign_shipping: 5,
      total_tax: 2.67,
      total: 40.07,
      preview: null,
    });
    renderCheckout({ cart });
    const view = await summary();
    view.getByText('Ethiopia Yirgacheffe coffee beans');
    view.getByText('Size: 340 g · Grind: Whole bean');
    expect(document.querySelector('.summary__image img')?.getAttribute('src')).toBe(
      '/checkout/images/coffee-beans.svg',
    );
    view.getByText('$36.00', { selector: '.summary__price' });
    const text = (document.querySelector('.summary__totals') as HTMLElement).textContent;
    expect(text).toContain('Subtotal$36.00');
    expect(text).toContain('Discount (WELCOME10)−$3.60');
    expect(text).toContain('Shipping$5.00');
    expect(text).toContain('Tax$2.67');
    expect(text).toContain('Total');
    expect(text).toContain('$40.07');
  });

  it('says what a subscription charges today and later', async () => {
    renderCheckout({ cart: cartFixture({ offers: [subscriptionOfferFixture({ id: 12 })] }) });
    const view = await summary();
    view.getByText('Today $29.00, then $25.00 every 30 days');
    view.getByText('First delivery: Coffee club starter kit');
  });

  it("says a trial's charges today and after in the server's words, not one interval's sum", async () => {
    const trial = subscriptionOfferFixture({
      id: 13,
      item_name: 'Coffee club trial',
      total: 3.08,
      next_cycle_total: 23.64,
      billing_plan: {
        phases: [
          { cycles: 1, amount: 3.08, interval_days: 14 },
          { cycles: null, amount: 23.64, interval_days: 30 },
        ],
        total_cycles: null,
        has_special_cycles: true,
        description: '$3.08 today for 14 days, then $23.64 every 30 days',
        prepaid: null,
      },
    });
    renderCheckout({ cart: cartFixture({ offers: [trial], total: 8.08 }) });
    const view = await summary();
    await view.findByText('Coffee club trial: $3.08 today for 14 days, then $23.64 every 30 days');
    view.getByText('Today $8.08 in all.', { exact: false });
    expect(view.queryByText(/then \$23\.64 every 30 days$/, { selector: 'dd' })).toBeNull();
  });

  it('offers quantity controls only when the cart is editable', async () => {
    renderCheckout({
      config: {
        client_options: {
          cart: { editable: { value: true, override: false } },
          testCards: [],
          subscriptionTermsCheckbox: { display: true, autoChecked: false },
          emailOptInCheckbox: { display: true, autoChecked: false },
        },
      },
    });
    const view = await summary();
    expect(view.queryByRole('button', { name: /Increase quantity/ })).toBeNull();
    expect(view.getByText('Quantity', { exact: false })).toBeTruthy();
  });

  it('changes a quantity through the API and shows the new cart', async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('PUT', /\/quantity$/, (request) => {
      const quantity = Number(request.body?.quantity);
      return {
        status: 200,
        body: cartFixture({
          offers: [offerFixture({ id: 11, order_offer_quantity: quantity, subtotal_offer: 18 * quantity })],
        }),
      };
    });
    const { user } = renderCheckout({ api });
    const view = await summary();
    expect(
      (
        view.getByRole('button', {
          name: 'Decrease quantity of Ethiopia Yirgacheffe coffee beans',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
    await user.click(
      view.getByRole('button', { name: 'Increase quantity of Ethiopia Yirgacheffe coffee beans' }),
    );
    await view.findByText('$36.00', { selector: '.summary__price' });
    expect(api.requestsTo('PUT', /\/quantity$/)[0]?.body).toMatchObject({
      id: 11,
      quantity: 2,
      _is_vrio_checkout: 1,
    });
  });

  it('removes a line while another stays, and Undo puts it back with its quantity, by keyboard', async () => {
    const beans = offerFixture({ id: 11 });
    const mug = offerFixture({
      id: 12,
      item_name: 'Stoneware mug',
      order_offer_quantity: 3,
      subtotal_offer: 42,
    });
    const api = createFakeShopperApi(cartFixture({ offers: [beans, mug] }));
    api.on('PUT', /\/quantity$/, (request) => {
      api.setCart(cartFixture({ offers: request.body?.quantity === 0 ? [beans] : [beans, mug] }));
      return { status: 200, body: api.cart };
    });
    const { user } = renderCheckout({ api });
    const view = await summary();
    const live = () => document.querySelector('[aria-live="polite"]')?.textContent;

    view.getByRole('button', { name: 'Remove Stoneware mug' }).focus();
    await user.keyboard('{Enter}');
    const undo = await view.findByRole('button', { name: 'Undo: put Stoneware mug back' });
    expect(view.queryByRole('button', { name: /Increase quantity of Stoneware mug/ })).toBeNull();
    // The focus Remove had stays in the summary, on Undo; the removal is said.
    await waitFor(() => expect(document.activeElement).toBe(undo));
    await waitFor(() => expect(live()).toBe('Stoneware mug was removed from your order.'));
    // The line left is the last one: it cannot be removed.
    expect(view.queryByRole('button', { name: /^Remove / })).toBeNull();
    expect(api.requestsTo('PUT', /\/quantity$/)[0]?.body).toMatchObject({ id: 12, quantity: 0 });

    await user.keyboard('{Enter}');
    const remove = await view.findByRole('button', { name: 'Remove Stoneware mug' });
    expect(api.requestsTo('PUT', /\/quantity$/)[1]?.body).toMatchObject({ id: 12, quantity: 3 });
    expect(view.queryByRole('button', { name: /^Undo/ })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(remove));
    await waitFor(() => expect(live()).toBe('Stoneware mug is back in your order: quantity 3.'));
  });

  it('offers no Remove for the only line', async () => {
    renderCheckout();
    const view = await summary();
    view.getByRole('button', { name: /Increase quantity/ });
    expect(view.queryByRole('button', { name: /^Remove / })).toBeNull();
  });

  it('keeps the quantity controls after a declined payment while the cart says it is editable', async () => {
    renderCheckout({ cart: cartFixture({ order: { order_id: 7, status: 'declined' }, editable: true }) });
    const view = await summary();
    view.getByRole('button', { name: /Increase quantity/ });
  });

  it("shows the server's message when a quantity change is refused", async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('PUT', /\/quantity$/, () => ({
      status: 409,
      body: { status: 409, code: 'cart_not_editable', message: 'This order can no longer be changed.' },
    }));
    const { user } = renderCheckout({ api });
    const view = await summary();
    await user.click(view.getByRole('button', { name: /Increase quantity/ }));
    await view.findByText('This order can no longer be changed.');
  });

  it('applies a discount code, shows it, and removes it', async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('PUT', /\/discount_code$/, (request) => ({
      status: 200,
      body:
        request.body?.discount_code === ''
          ? cartFixture()
          : cartFixture({ discount_code: 'WELCOME10', total_discount: 1.8, total: 16.2 }),
    }));
    const { user } = renderCheckout({ api });
    const view = await summary();
    await user.type(view.getByLabelText('Discount code'), 'welcome10');
    await user.click(view.getByRole('button', { name: 'Apply' }));
    await view.findByText('WELCOME10', { selector: 'strong' });
    expect((document.querySelector('.summary__totals') as HTMLElement).textContent).toContain('−$1.80');
    expect(api.requestsTo('PUT', /\/discount_code$/)[0]?.body).toMatchObject({ discount_code: 'welcome10' });
    await user.click(view.getByRole('button', { name: /Remove/ }));
    await waitFor(() => expect(view.queryByText('WELCOME10', { selector: 'strong' })).toBeNull());
    expect(api.requestsTo('PUT', /\/discount_code$/)[1]?.body).toMatchObject({ discount_code: '' });
  });

  it("shows why a discount code is refused in the server's words", async () => {
    const api = createFakeShopperApi(cartFixture());
    api.on('PUT', /\/discount_code$/, () => ({
      status: 422,
      body: {
        status: 422,
        code: 'discount_code_expired',
        message: 'This code expired on September 1, 2024.',
      },
    }));
    const { user } = renderCheckout({ api });
    const view = await summary();
    await user.type(view.getByLabelText('Discount code'), 'SUMMER24');
    await user.click(view.getByRole('button', { name: 'Apply' }));
    await view.findByText('This code expired on September 1, 2024.');
    expect(view.getByLabelText('Discount code').getAttribute('aria-invalid')).toBe('true');
  });

  it("says when an applied code no longer applies, in the server's words", async () => {
    renderCheckout({
      cart: cartFixture({
        discount_code: 'SAVE5',
        discount_notice: {
          code: 'discount_code_minimum_not_met',
          message: 'SAVE5 needs a subtotal of $30.00.',
        },
      }),
    });
    const view = await summary();
    view.getByText('SAVE5 needs a subtotal of $30.00.');
    view.getByText('no longer applies', { exact: false });
  });

  it('collapses to a bar with the total that expands in place', async () => {
    const { user } = renderCheckout();
    const toggle = await screen.findByRole('button', { name: /Show order summary/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toContain('$18.00');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: /Hide order summary/ }).getAttribute('aria-expanded')).toBe(
      'true',
    );
  });
});
