import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AddressLines } from './order-sections.js';

const lines = (element: HTMLElement) =>
  [...element.querySelectorAll('address span')].map((span) => span.textContent);

describe('an order’s address on the dashboard', () => {
  it('is written as its country writes it, the prefecture by its Latin name, then the phone', () => {
    const { container } = render(
      <AddressLines
        address={{
          fname: '太郎',
          lname: '山田',
          address1: '千代田区千代田1-1',
          address2: '',
          city: '',
          state: '13',
          zipcode: '100-0001',
          country: 'JP',
          phone: '+81 3-1234-5678',
        }}
      />,
    );
    expect(lines(container)).toEqual([
      '〒100-0001',
      'TOKYO',
      '千代田区千代田1-1',
      '太郎 山田',
      'Japan',
      '+81 3-1234-5678',
    ]);
  });

  it('names an Irish county by its name, not its code', () => {
    const ireland = render(
      <AddressLines
        address={{
          fname: 'Ada',
          lname: 'Lovelace',
          address1: '1 Grafton St',
          address2: '',
          city: 'Dublin',
          state: 'D',
          zipcode: 'D02 AF30',
          country: 'IE',
          phone: '',
        }}
      />,
    );
    expect(lines(ireland.container)).toEqual([
      'Ada Lovelace',
      '1 Grafton St',
      'Dublin',
      'Co. Dublin',
      'D02 AF30',
      'Ireland',
    ]);
  });
});
