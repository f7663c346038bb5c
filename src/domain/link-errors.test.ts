import { describe, expect, it } from 'vitest';
import { GIFT_ALREADY_CLAIMED_CODE, linkErrorTitle } from './link-errors.js';

describe('linkErrorTitle', () => {
  it('says a claimed gift was claimed', () => {
    expect(linkErrorTitle(GIFT_ALREADY_CLAIMED_CODE)).toEqual({ key: 'common.gift_claimed_title' });
  });

  it('says any other link (an unknown code among them) is not valid', () => {
    for (const code of ['cart_not_found', 'cart_token_missing', '', null, undefined])
      expect(linkErrorTitle(code)).toEqual({ key: 'common.link_error_title' });
  });
});
