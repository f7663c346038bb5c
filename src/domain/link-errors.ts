/**
 * What the page says when its link opens no checkout. The server answers an error code with the page (and the cart
 * API with the same code); the page's heading comes from the code, its text from the answer's message.
 */
import type { Message } from '../i18n/message-keys.js';

export const GIFT_ALREADY_CLAIMED_CODE = 'gift_already_claimed';

/**
 * A claimed gift's link: the code is a long random secret (docs/security.md), so saying it was claimed tells a
 * guesser nothing; an unknown code still reads as a link that is not valid.
 */
export const GIFT_ALREADY_CLAIMED: Message = { key: 'common.gift_claimed_message' };

/** The English words of GIFT_ALREADY_CLAIMED (the catalogue's), for answers that are not said in a language. */
export const GIFT_ALREADY_CLAIMED_MESSAGE =
  'Each gift link works once, and this one has been used to claim the gift. If you did not claim it yourself, ask the person who sent it to you.';

/** The heading of the page an error code stands for, as a message of the common catalogue (docs/languages.md). */
export function linkErrorTitleKey(
  code: string | null | undefined,
): 'common.gift_claimed_title' | 'common.link_error_title' {
  return code === GIFT_ALREADY_CLAIMED_CODE ? 'common.gift_claimed_title' : 'common.link_error_title';
}

/** The heading of the page an error code stands for, as a message to say in the page's language. */
export function linkErrorTitle(code: string | null | undefined): Message {
  return { key: linkErrorTitleKey(code) };
}
