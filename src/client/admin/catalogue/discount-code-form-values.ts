// A discount code's form (docs/dashboard.md, "Catalogue"): every field of CreateDiscountCodeSchema, as typed.
import type { DiscountCode } from '../../../contract/merchant.js';
import { ApiFailure } from '../admin-api.js';
import { failureOf, type FormFailure } from '../kit/form-failure.js';
import { amountOf, amountText, isoToLocal, localToIso, wholeOf } from './form-values.js';

export interface CodeFormValues {
  code: string;
  kind: 'percent' | 'fixed';
  percent_off: string;
  amount_off: string;
  /** datetime-local values, in the browser's time zone */
  starts_at: string;
  ends_at: string;
  usage_limit: string;
  min_subtotal: string;
  offer_ids: number[];
  active: boolean;
}

export const NEW_CODE: CodeFormValues = {
  code: '',
  kind: 'percent',
  percent_off: '',
  amount_off: '',
  starts_at: '',
  ends_at: '',
  usage_limit: '',
  min_subtotal: '0',
  offer_ids: [],
  active: true,
};

export function codeFormValues(code: DiscountCode): CodeFormValues {
  return {
    code: code.code,
    kind: code.kind,
    percent_off: amountText(code.percent_off),
    amount_off: amountText(code.amount_off),
    starts_at: isoToLocal(code.starts_at),
    ends_at: isoToLocal(code.ends_at),
    usage_limit: code.usage_limit === null ? '' : String(code.usage_limit),
    min_subtotal: amountText(code.min_subtotal),
    offer_ids: [...code.offer_ids].sort((a, b) => a - b),
    active: code.active,
  };
}

/** The API's body: only the kind's own amount, moments with the browser's offset, an empty limit as none. */
export function codeBody(values: CodeFormValues): Record<string, unknown> {
  return {
    code: values.code,
    kind: values.kind,
    percent_off: values.kind === 'percent' ? amountOf(values.percent_off) : null,
    amount_off: values.kind === 'fixed' ? amountOf(values.amount_off) : null,
    starts_at: values.starts_at === '' ? null : localToIso(values.starts_at),
    ends_at: values.ends_at === '' ? null : localToIso(values.ends_at),
    usage_limit: wholeOf(values.usage_limit) ?? null,
    min_subtotal: amountOf(values.min_subtotal) ?? 0,
    offer_ids: [...values.offer_ids].sort((a, b) => a - b),
    active: values.active,
  };
}

export const CODE_FIELD_ORDER = [
  'code',
  'kind',
  'percent_off',
  'amount_off',
  'starts_at',
  'ends_at',
  'usage_limit',
  'min_subtotal',
  'offer_ids',
  'active',
] as const;

/** What the server refused; a code that exists already (409) is said by the code's field. */
export function codeFailure(error: unknown): FormFailure {
  if (error instanceof ApiFailure && error.status === 409)
    return { message: null, fields: { code: error.message } };
  return failureOf(error);
}
