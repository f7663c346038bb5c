/** An address on one line, for a finished step: "Ada Lovelace, 1 Main St, Austin TX 73301, United States". */
export function addressLine(
  text: Record<string, string>,
  prefix: 'ship' | 'bill',
  countryName: (code: string) => string,
) {
  const value = (field: string) => (text[`${prefix}_${field}`] ?? '').trim();
  const name = [value('fname'), value('lname')].filter(Boolean).join(' ');
  const street = [value('address1'), value('address2')].filter(Boolean).join(', ');
  const place = [value('city'), [value('state'), value('zipcode')].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(' ');
  const country = value('country') ? countryName(value('country')) : '';
  return [name, street, place, country].filter(Boolean).join(', ');
}
