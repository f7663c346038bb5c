import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { completedOrder } from '../../testing/fake-shopper-api.js';
import {
  cartFixture,
  FILLED_CUSTOMER,
  offerFixture,
  subscriptionOfferFixture,
} from '../../testing/fixtures.js';
import ConfirmationView from './confirmation-view.js';

describe('ConfirmationView', () => {
  it('thanks the shopper by name, gives the order number, where it ships and what was bought', async () => {
    render(<ConfirmationView cart={completedOrder(cartFixture({ customer: FILLED_CUSTOMER }), 1234)} />);
    const heading = screen.getByRole('heading', { name: 'Thank you, Ada!' });
    expect(document.activeElement).toBe(heading);
    screen.getByText('#1234');
    // A line per line of the address, as the country writes it, once the address data has loaded.
    const shipsTo = (await screen.findByText('Austin, TX 73301')).closest('p') as HTMLElement;
    expect(shipsTo.innerHTML).toBe(
      '<span>Ada Lovelace</span><span><br>1 Main St</span><span><br>Austin, TX 73301</span><span><br>United States</span>',
    );
    screen.getByText('Ethiopia Yirgacheffe coffee beans');
    screen.getByText(/receipt is on its way to ada@example.com/);
  });

  it('gives the next charge of a subscription and when gift recipients are told', () => {
    const club = subscriptionOfferFixture({ id: 5 });
    const mug = offerFixture({
      id: 6,
      item_name: 'Stoneware mug',
      is_gift: true,
      gift_name: 'Grace',
      gift_email: 'grace@example.com',
      gift_date: '2026-12-24',
    });
    const cart = completedOrder(cartFixture({ offers: [club, mug], customer: FILLED_CUSTOMER }));
    const withSubscription = {
      ...cart,
      order: {
        ...cart.order,
        subscriptions: [
          {
            order_offer_id: 5,
            item_name: 'Coffee club subscription',
            amount: 25,
            interval_days: 30,
            next_charge_at: '2026-12-15T10:00:00.000Z',
          },
        ],
      },
    };
    render(<ConfirmationView cart={withSubscription} />);
    screen.getByText(
      /Coffee club subscription: next charge of \$25.00 on December 15, 2026, then every 30 days/,
    );
    screen.getByText(/Stoneware mug: we will email Grace \(grace@example.com\) on December 24, 2026/);
    screen.getByText(
      'Your welcome email to ada@example.com has the link to skip a charge, pause or cancel any time before a charge.',
    );
  });
});
