import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UpsellState } from '../../../contract/upsell.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import { ApiRequestError, type RequestOptions } from '../../api/http-client.js';
import { completedOrder } from '../../testing/fake-shopper-api.js';
import { cartFixture, FILLED_CUSTOMER } from '../../testing/fixtures.js';
import { LiveRegionProvider } from '../../ui/live-region.js';
import ConfirmationView from '../confirmation/confirmation-view.js';
import type { CardProcessor, Outcome } from '../payment/processors/card-processor.js';
import { englishT } from '../../testing/english-t.js';

const NOT_AUTHENTICATED = englishT('funnel.not_authenticated');

const OFFER: UpsellState = {
  order_id: 77,
  currency: 'USD',
  offer: {
    step: 1,
    is_downsell: false,
    offer_id: 9,
    name: 'Burr grinder',
    text: 'Grinds for every brew.',
    image: 'https://cdn.example.com/grinder.png',
    subtotal: 40,
    shipping: 5,
    tax: 3.3,
    amount: 48.3,
    recurring: null,
    expires_at: '2026-11-15T10:10:00.000Z',
    seconds_left: 600,
  },
  linked_orders: [],
};

const DONE: UpsellState = {
  ...OFFER,
  offer: null,
  linked_orders: [
    { order_id: 78, total: 48.3, lines: [{ item_name: 'Burr grinder', quantity: 1, total: 48.3 }] },
  ],
};

/** The shopper API as the upsell chunk calls it: each request recorded, the accept answered once released. */
function fakeApi() {
  const sent: { method: string; path: string; key: string | undefined }[] = [];
  let release: () => void = () => undefined;
  const accepted = new Promise<void>((resolve) => (release = resolve));
  const request = async (options: RequestOptions<unknown>) => {
    sent.push({ method: options.method, path: options.path, key: options.headers?.['Idempotency-Key'] });
    if (options.method === 'GET') return OFFER;
    await accepted;
    return DONE;
  };
  return { api: { http: { request } } as unknown as CheckoutApi, sent, release: () => release() };
}

describe('the offers after the order', () => {
  it('shows the offer focused, sends one accept for a double click, then lists both orders', async () => {
    const user = userEvent.setup();
    const fake = fakeApi();
    const base = completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 77);
    const cart = { ...base, order: { ...base.order, has_upsells: true } };
    render(
      <LiveRegionProvider>
        <ConfirmationView cart={cart} api={fake.api} />
      </LiveRegionProvider>,
    );
    const heading = await screen.findByRole('heading', { name: 'Burr grinder' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    screen.getByRole('img', { name: 'Burr grinder' });
    screen.getByText(
      /charged today to the card you just used \(\$40\.00 item, \$5\.00 shipping, \$3\.30 tax\)/,
    );
    screen.getByText('10:00');

    await user.dblClick(screen.getByRole('button', { name: 'Yes, add it' }));
    fake.release();
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    const posts = fake.sent.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.path).toMatch(/\/orders\/77\/upsell\/accept$/);
    expect(posts[0]?.key).toMatch(/\S{16,}/);
    screen.getByText(/Order #78: Burr grinder\s*, \$48\.30 charged to the same card\./);
    screen.getByText('$66.30');
  });

  it('shows the confirmation alone for an order without upsells', () => {
    const fake = fakeApi();
    render(
      <ConfirmationView
        cart={completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 77)}
        api={fake.api}
      />,
    );
    screen.getByRole('heading', { name: 'Thank you, Ada!' });
    expect(fake.sent).toEqual([]);
  });

  it('shows the offer bought when a no comes after the bank took the yes (409 upsell_accepted)', async () => {
    const user = userEvent.setup();
    const BOUGHT =
      'Your bank had already confirmed your yes to this offer, so it was bought and charged once: it comes with ' +
      'your order, and nothing more is charged. If you do not want it, contact the shop to return it.';
    let reads = 0;
    const sent: string[] = [];
    const request = async (options: RequestOptions<unknown>) => {
      if (options.method === 'GET') return reads++ === 0 ? OFFER : DONE;
      sent.push(options.path);
      throw new ApiRequestError({ status: 409, code: 'upsell_accepted', message: BOUGHT });
    };
    const base = completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 77);
    render(
      <LiveRegionProvider>
        <ConfirmationView
          cart={{ ...base, order: { ...base.order, has_upsells: true } }}
          api={{ http: { request } } as unknown as CheckoutApi}
        />
      </LiveRegionProvider>,
    );
    await user.click(await screen.findByRole('button', { name: 'No, thanks' }));
    await screen.findByRole('heading', { name: 'Thank you, Ada!' });
    expect(sent).toEqual([expect.stringMatching(/\/upsell\/decline$/)]);
    // The notice on the page (the live region may announce the same words meanwhile).
    expect(screen.getByText(BOUGHT, { selector: 'p' }).getAttribute('role')).toBe('status');
    screen.getByText(/Order #78: Burr grinder\s*, \$48\.30 charged to the same card\./);
  });

  describe('when the bank wants the accept authenticated (Stripe)', () => {
    const ASKED: UpsellState = {
      ...OFFER,
      action: {
        type: 'authenticate',
        reference: 'pi_77',
        payment_action: { type: 'stripe', client_secret: 'pi_77_secret_1' },
      },
    };
    const DOWNSELL: UpsellState = {
      ...OFFER,
      offer: { ...OFFER.offer!, step: 2, is_downsell: true, name: 'Hand grinder' },
    };

    /** The shopper API answering each accept and decline in turn, with what was sent. */
    function scriptedApi(answers: (UpsellState | Error)[]) {
      const sent: { path: string; body: unknown; key: string | undefined }[] = [];
      const request = async (options: RequestOptions<unknown>) => {
        if (options.method === 'GET') return OFFER;
        sent.push({ path: options.path, body: options.body, key: options.headers?.['Idempotency-Key'] });
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        return answer;
      };
      return { api: { http: { request } } as unknown as CheckoutApi, sent };
    }

    function renderWith(api: CheckoutApi, outcome: Outcome) {
      const authenticate = vi.fn(async () => outcome);
      const processor: CardProcessor = { mount: vi.fn(), authenticate };
      const loadCardProcessor = vi.fn(async () => processor);
      const base = completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 77);
      render(
        <LiveRegionProvider>
          <ConfirmationView
            cart={{ ...base, order: { ...base.order, has_upsells: true } }}
            api={api}
            cardProcessor={{ name: 'stripe', publishable_key: 'pk_test_1' }}
            loadCardProcessor={loadCardProcessor}
          />
        </LiveRegionProvider>,
      );
      return { authenticate, loadCardProcessor };
    }

    it("runs Stripe.js's challenge, then sends the accept again with the payment and shows both orders", async () => {
      const user = userEvent.setup();
      const fake = scriptedApi([ASKED, DONE]);
      const { authenticate, loadCardProcessor } = renderWith(fake.api, { ok: true });
      await user.click(await screen.findByRole('button', { name: 'Yes, add it' }));
      await screen.findByRole('heading', { name: 'Thank you, Ada!' });
      expect(loadCardProcessor).toHaveBeenCalledWith({ name: 'stripe', publishable_key: 'pk_test_1' });
      expect(authenticate).toHaveBeenCalledWith(
        { type: 'stripe', client_secret: 'pi_77_secret_1' },
        expect.any(Function),
      );
      expect(fake.sent.map(({ body }) => body)).toEqual([
        { step: 1 },
        { step: 1, authenticated_payment: 'pi_77' },
      ]);
      expect(fake.sent[0]?.key).not.toBe(fake.sent[1]?.key);
      screen.getByText(/Order #78: Burr grinder\s*, \$48\.30 charged to the same card\./);
    });

    it('sends the authenticated accept again, same key, after its answer was lost', async () => {
      const user = userEvent.setup();
      const fake = scriptedApi([ASKED, new Error('network'), DONE]);
      const { authenticate } = renderWith(fake.api, { ok: true });
      await user.click(await screen.findByRole('button', { name: 'Yes, add it' }));
      await waitFor(() => expect(fake.sent).toHaveLength(2));
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Yes, add it' }).getAttribute('aria-disabled')).not.toBe(
          'true',
        ),
      );
      expect(screen.queryByText(/in the window that opened/)).toBeNull();
      await user.click(await screen.findByRole('button', { name: 'Yes, add it' }));
      await screen.findByRole('heading', { name: 'Thank you, Ada!' });
      expect(authenticate).toHaveBeenCalledTimes(1);
      expect(fake.sent[2]?.body).toEqual({ step: 1, authenticated_payment: 'pi_77' });
      expect(fake.sent[2]?.key).toBe(fake.sent[1]?.key);
    });

    it('keeps the offer after a failed challenge: nothing charged, a yes is a new try, a no declines', async () => {
      const user = userEvent.setup();
      const fake = scriptedApi([ASKED, ASKED, DOWNSELL]);
      const { authenticate } = renderWith(fake.api, { ok: false, message: 'Stripe says no.' });
      await user.click(await screen.findByRole('button', { name: 'Yes, add it' }));
      expect((await screen.findByText(NOT_AUTHENTICATED)).getAttribute('role')).toBe('alert');
      expect(fake.sent).toHaveLength(1);
      expect(screen.queryByText(/in the window that opened/)).toBeNull();

      await user.click(screen.getByRole('button', { name: 'Yes, add it' }));
      await waitFor(() => expect(authenticate).toHaveBeenCalledTimes(2));
      expect(fake.sent[1]?.body).toEqual({ step: 1 });
      expect(fake.sent[1]?.key).not.toBe(fake.sent[0]?.key);

      await user.click(await screen.findByRole('button', { name: 'No, thanks' }));
      await screen.findByRole('heading', { name: 'Hand grinder' });
      expect(fake.sent[2]?.path).toMatch(/\/upsell\/decline$/);
    });
  });
});
