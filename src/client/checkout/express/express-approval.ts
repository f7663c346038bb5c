import { fromMajor, toMajor, minor } from '../../../domain/money.js';

export type ApprovalComparison =
  | { kind: 'same' }
  /** difference: how much more or less the final total is (major units) */
  | { kind: 'more' | 'less'; difference: number };

/**
 * The final total against what the payer approved at the provider. The payer approves the cart's total before their
 * address prices shipping and tax; the order charges the final total (the adapter updates the provider's payment to
 * it first), so the page says when the two differ and by how much. Compared in minor units.
 */
export function compareWithApproved(approved: number, total: number, currency: string): ApprovalComparison {
  const approvedMinor = fromMajor(approved, currency) ?? minor(Math.round(approved * 100));
  const totalMinor = fromMajor(total, currency) ?? minor(Math.round(total * 100));
  if (approvedMinor === totalMinor) return { kind: 'same' };
  const difference = toMajor(minor(Math.abs(totalMinor - approvedMinor)), currency);
  return { kind: totalMinor > approvedMinor ? 'more' : 'less', difference };
}
