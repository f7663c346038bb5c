import { describe, expect, it } from 'vitest';
import { presentGiftFrom } from './gift-from.js';

const row = {
  line_id: 7,
  message: '  Happy birthday!  ',
  bill_first_name: 'Ada',
  bill_last_name: 'Lovelace',
  ship_first_name: 'Charles',
  ship_last_name: 'Babbage',
};

describe('presentGiftFrom', () => {
  it('names the giver as they paid, with their message', () => {
    expect(presentGiftFrom(row)).toEqual({ name: 'Ada Lovelace', message: 'Happy birthday!' });
  });

  it('falls back to the name the giver shipped to, and to nothing', () => {
    expect(presentGiftFrom({ ...row, bill_first_name: '', bill_last_name: ' ' })).toEqual({
      name: 'Charles Babbage',
      message: 'Happy birthday!',
    });
    expect(
      presentGiftFrom({
        ...row,
        bill_first_name: '',
        bill_last_name: '',
        ship_first_name: '',
        ship_last_name: '',
      }),
    ).toEqual({ name: '', message: 'Happy birthday!' });
  });

  it('is null on a cart that claims no gift', () => {
    expect(presentGiftFrom(null)).toBeNull();
  });
});
