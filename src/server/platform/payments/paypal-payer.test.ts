import { describe, expect, it } from 'vitest';
import { toExpressPayer } from './paypal-payer.js';
import type { PaypalOrder } from './paypal-responses.js';

const order = (overrides: Partial<PaypalOrder>): PaypalOrder => ({ id: '5O190127TN364715T', ...overrides });

describe('toExpressPayer', () => {
  it('maps the wallet payer and the chosen shipping address to our fields', () => {
    const payer = toExpressPayer(
      order({
        payment_source: {
          paypal: { email_address: 'ana@example.com', name: { given_name: 'Ana', surname: 'Silva' } },
        },
        purchase_units: [
          {
            shipping: {
              name: { full_name: 'Bea Costa' },
              address: {
                address_line_1: '1 Main St',
                address_line_2: 'Apt 2',
                admin_area_2: 'San Jose',
                admin_area_1: 'CA',
                postal_code: '95131',
                country_code: 'US',
              },
            },
          },
        ],
      }),
    );
    expect(payer).toEqual({
      email: 'ana@example.com',
      fname: 'Ana',
      lname: 'Silva',
      ship_fname: 'Bea',
      ship_lname: 'Costa',
      ship_address1: '1 Main St',
      ship_address2: 'Apt 2',
      ship_city: 'San Jose',
      ship_state: 'CA',
      ship_zipcode: '95131',
      ship_country: 'US',
    });
  });

  it("keeps the payer's own name split when the ship-to name is theirs", () => {
    const payer = toExpressPayer(
      order({
        payer: { email_address: 'm@example.com', name: { given_name: 'Mary Ann', surname: 'van Dyke' } },
        purchase_units: [{ shipping: { name: { full_name: 'Mary Ann  van Dyke' } } }],
      }),
    );
    expect(payer).toMatchObject({ ship_fname: 'Mary Ann', ship_lname: 'van Dyke', email: 'm@example.com' });
  });

  it('splits a different ship-to name at the first space', () => {
    const payer = toExpressPayer(
      order({
        payer: { email_address: 'm@example.com', name: { given_name: 'Mary', surname: 'Ng' } },
        purchase_units: [{ shipping: { name: { full_name: 'Jean Paul Sartre' } } }],
      }),
    );
    expect(payer).toMatchObject({ ship_fname: 'Jean', ship_lname: 'Paul Sartre' });
  });

  it('leaves address fields empty when PayPal sent no shipping (no address line 2, digital goods)', () => {
    const payer = toExpressPayer(
      order({ payer: { email_address: 'x@example.com', name: { given_name: 'X', surname: 'Y' } } }),
    );
    expect(payer).toMatchObject({ ship_fname: 'X', ship_lname: 'Y', ship_address1: '', ship_address2: '' });
  });

  it('is null when PayPal told us nothing about the payer', () => {
    expect(toExpressPayer(order({ status: 'COMPLETED' }))).toBeNull();
  });
});
