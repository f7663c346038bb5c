import { currencyDigits, fromMajor, toMajor, type Minor } from '../../../domain/money.js';

/**
 * Converts amounts from the wire (major units) into minor units, collecting a field message for each amount with
 * more decimals than the currency has, so one answer names every problem.
 */
export class MoneyInput {
  readonly fields: Record<string, string> = {};

  constructor(readonly currency: string) {}

  minor(field: string, value: number): Minor;
  minor(field: string, value: number | null): Minor | null;
  minor(field: string, value: number | undefined): Minor | undefined;
  minor(field: string, value: number | null | undefined): Minor | null | undefined;
  minor(field: string, value: number | null | undefined): Minor | null | undefined {
    if (value === undefined || value === null) return value;
    const amount = fromMajor(value, this.currency);
    if (amount === null) {
      const digits = currencyDigits(this.currency);
      this.fields[field] =
        digits === 0
          ? `Use a whole amount: ${this.currency} has no minor unit.`
          : `Use at most ${digits} decimal place${digits === 1 ? '' : 's'} for ${this.currency}.`;
      return 0 as Minor;
    }
    return amount;
  }
}

export function major(amount: number, currency: string): number {
  return toMajor(amount as Minor, currency);
}

export function majorOrNull(amount: number | null, currency: string): number | null {
  return amount === null ? null : toMajor(amount as Minor, currency);
}

export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}
