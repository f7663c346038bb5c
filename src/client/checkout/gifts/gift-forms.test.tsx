import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CartOffer } from '../../../contract/cart.js';
import { createFakeShopperApi } from '../../testing/fake-shopper-api.js';
import {
  cartFixture,
  FILLED_CUSTOMER,
  offerFixture,
  subscriptionOfferFixture,
} from '../../testing/fixtures.js';
import { renderCheckout } from '../../testing/render-checkout.js';

beforeEach(() => window.sessionStorage.clear());

const club = subscriptionOfferFixture({ id: 21, is_gift: true });
const mug = offerFixture({ id: 22, item_name: 'Stoneware mug', is_giftable: true, is_gift: true });
const giftCart = () => cartFixture({ offers: [club, mug], customer: FILLED_CUSTOMER });

async function openGifts(api = createFakeShopperApi(giftCart())) {
  const view = renderCheckout({ api, cart: api.cart });
  await screen.findByRole('button', { name: /Gift 1: Coffee club subscription/ });
  return view;
}

describe('gift section', () => {
  it('lists the gift offers as an accordion with the first one open', async () => {
    await openGifts();
    const first = screen.getByRole('button', { name: /Gift 1: Coffee club subscription/ });
    const second = screen.getByRole('button', { name: /Gift 2: Stoneware mug/ });
    expect(first.getAttribute('aria-expanded')).toBe('true');
    expect(second.getAttribute('aria-expanded')).toBe('false');
    expect((screen.getByLabelText('Recipient’s name') as HTMLInputElement).name).toBe('gift_name_21');
    expect((screen.getByLabelText('Send the gift notice on') as HTMLInputElement).value).toBe('2026-11-15');
  });

  it('names every field after its offer: gift_name_{id} … order_offer_notes_{id}', async () => {
    const { user } = await openGifts();
    await user.click(screen.getByRole('button', { name: /Gift 2: Stoneware mug/ }));
    const names = [...document.querySelectorAll('#gift-panel-22 input, #gift-panel-22 textarea')].map(
      (element) => (element as HTMLInputElement).name,
    );
    expect(names).toEqual([
      'gift_name_22',
      'gift_email_22',
      'gift_date_22',
      'gift_phone_22',
      'gift_message_22',
      'order_offer_notes_22',
    ]);
  });

  it('opens the gift with the first error and focuses it', async () => {
    const { user } = await openGifts();
    await user.type(screen.getByLabelText('Recipient’s name'), 'Grace');
    await user.type(screen.getByLabelText('Recipient’s email'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Gift 2/ }).getAttribute('aria-expanded')).toBe('true'),
    );
    await waitFor(() => expect(document.activeElement?.getAttribute('name')).toBe('gift_name_22'));
  });

  async function fillBoth(user: Awaited<ReturnType<typeof openGifts>>['user']) {
    await user.type(screen.getByLabelText('Recipient’s name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('Recipient’s email'), 'grace@example.com');
    await user.type(screen.getByLabelText(/Gift message/), 'Enjoy!');
    await user.click(screen.getByRole('button', { name: 'Next gift' }));
    await user.type(screen.getByLabelText('Recipient’s name'), 'Alan Turing');
    await user.type(screen.getByLabelText('Recipient’s email'), 'alan@example.com');
  }

  it('saves each gift with its own call, then moves on', async () => {
    const api = createFakeShopperApi(giftCart());
    api.on('PATCH', /\/order_offers\/\d+\/gift$/, (request) => {
      const line = api.cart.offers.find(
        (offer) => offer.order_offer_id === request.body?.order_offer_id,
      ) as CartOffer;
      return {
        status: 200,
        body: {
          offer: {
            ...line,
            gift_name: request.body?.gift_name,
            gift_email: request.body?.gift_email,
            gift_date: request.body?.gift_date,
            gift_message: request.body?.gift_message,
          },
        },
      };
    });
    const { user } = await openGifts(api);
    await fillBoth(user);
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await screen.findByRole('group', { name: 'Card details' });
    const calls = api.requestsTo('PATCH', /\/gift$/);
    expect(calls.map((call) => call.path).sort()).toEqual([
      '/checkout/api/vrio/order_offers/21/gift',
      '/checkout/api/vrio/order_offers/22/gift',
    ]);
    expect(calls.find((call) => call.path.includes('/21/'))?.body).toMatchObject({
      order_offer_id: 21,
      cart_token: api.cart.cart_token,
      gift_name: 'Grace Hopper',
      gift_email: 'grace@example.com',
      gift_date: '2026-11-15',
      gift_message: 'Enjoy!',
      gift_phone: '',
      order_offer_notes: '',
      _is_vrio_checkout: 1,
    });
    const summary = screen.getByText(/Coffee club subscription for Grace Hopper/);
    expect(
      within(summary.closest('ul') as HTMLElement).getByText(/Stoneware mug for Alan Turing/),
    ).toBeTruthy();
  });

  it("fails with status 513 and the failed gifts' messages joined by '. '", async () => {
    const api = createFakeShopperApi(giftCart());
    api.on('PATCH', /\/order_offers\/\d+\/gift$/, (request) => ({
      status: 422,
      body: {
        status: 422,
        code: 'validation_failed',
        message:
          request.body?.order_offer_id === 21
            ? 'This email cannot receive gifts.'
            : 'Choose a date from today on.',
        fields: request.body?.order_offer_id === 21 ? { gift_email: 'Use another email address.' } : {},
      },
    }));
    const { user } = await openGifts(api);
    await fillBoth(user);
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This email cannot receive gifts. Choose a date from today on.');
    await waitFor(() => expect(document.activeElement?.getAttribute('name')).toBe('gift_email_21'));
    expect(screen.getAllByText('Use another email address.')).toHaveLength(2);
    expect(screen.queryByRole('group', { name: 'Card details' })).toBeNull();
  });

  it('saves again on the next Continue once the refused detail is fixed, and moves on', async () => {
    const api = createFakeShopperApi(giftCart());
    api.on('PATCH', /\/order_offers\/\d+\/gift$/, (request) => {
      if (request.body?.gift_email === 'grace@example.com') {
        return {
          status: 422,
          body: {
            status: 422,
            code: 'validation_failed',
            message: 'This email cannot receive gifts.',
            fields: { gift_email: 'Use another email address.' },
          },
        };
      }
      const line = api.cart.offers.find((offer) => offer.order_offer_id === request.body?.order_offer_id);
      return { status: 200, body: { offer: { ...line, gift_name: request.body?.gift_name } } };
    });
    const { user } = await openGifts(api);
    await fillBoth(user);
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await waitFor(() => expect(document.activeElement?.getAttribute('name')).toBe('gift_email_21'));
    await user.clear(screen.getByLabelText('Recipient’s email'));
    await user.type(screen.getByLabelText('Recipient’s email'), 'grace.hopper@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    await screen.findByRole('group', { name: 'Card details' });
    const tries = api.requestsTo('PATCH', /\/order_offers\/21\/gift$/);
    expect(tries.map((call) => call.body?.gift_email)).toEqual([
      'grace@example.com',
      'grace.hopper@example.com',
    ]);
  });
});
