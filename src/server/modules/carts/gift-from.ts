import type { GiftFromRow } from './cart-snapshot-repository.js';

/**
 * Who a claimed gift is from, as the claim page shows it: the name on the giver's payment (billing), else the one
 * they shipped to (an order whose billing was its shipping address keeps both), and their message.
 */
export function presentGiftFrom(row: GiftFromRow | null): { name: string; message: string } | null {
  if (!row) return null;
  const fullName = (first: string, last: string) => [first.trim(), last.trim()].filter(Boolean).join(' ');
  return {
    name:
      fullName(row.bill_first_name, row.bill_last_name) || fullName(row.ship_first_name, row.ship_last_name),
    message: row.message.trim(),
  };
}
