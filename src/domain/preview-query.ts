/**
 * The tax and shipping preview's query (docs/checkout-rules.md#preview-query): empty values are sent as 'null'.
 * Each request carries a version; only the answer echoing the latest version is applied, so a slow answer to an
 * older address never overwrites a newer one.
 */
export const PREVIEW_PARAMS = [
  'ship_country',
  'ship_state',
  'ship_zipcode',
  'ship_city',
  'bill_country',
  'bill_state',
  'bill_zipcode',
  'same_address',
  'shipping_profile_id',
  'version',
] as const;
export type PreviewParam = (typeof PREVIEW_PARAMS)[number];

export type PreviewInput = Partial<Record<Exclude<PreviewParam, 'same_address'>, string | null>> & {
  same_address?: boolean | null;
};

export function previewQueryParams(input: PreviewInput): Record<PreviewParam, string> {
  const out = {} as Record<PreviewParam, string>;
  for (const name of PREVIEW_PARAMS) {
    const value = input[name];
    if (typeof value === 'boolean') out[name] = value ? 'true' : 'false';
    else out[name] = value === undefined || value === null || value.trim() === '' ? 'null' : value.trim();
  }
  return out;
}

/**
 * The parameters that decide the preview, without the version: equal keys need no new request. While the billing
 * address is the shipping address its own fields decide nothing (the server prices the shipping address for both).
 */
export function previewKey(input: PreviewInput): string {
  const { version: _version, ...rest } = previewQueryParams(input);
  if (rest.same_address === 'true') {
    rest.bill_country = 'null';
    rest.bill_state = 'null';
    rest.bill_zipcode = 'null';
  }
  return JSON.stringify(rest);
}

export function isLatestPreview(answerVersion: string | null | undefined, latestVersion: string): boolean {
  return answerVersion === latestVersion;
}
