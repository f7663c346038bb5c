// A country's address form and its rules, read from Google's address data (docs/languages.md, "Addresses"). Pure and
// free of the data itself: the page loads one country's format when it is chosen, the server reads address-data.ts.
import type { Message, MessageKey } from '../../i18n/message-keys.js';

/** An address's fields, as the order body names them after ship_/bill_ (src/contract/address-fields.ts). */
export type AddressField =
  'fname' | 'lname' | 'address1' | 'address2' | 'city' | 'state' | 'zipcode' | 'country';

/** A country's record in address-data.json (scripts/address-data.ts). */
export interface CountryRecord {
  fmt?: string;
  require?: string;
  zip?: string;
  zipex?: string;
  state_name_type?: string;
  zip_name_type?: string;
  locality_name_type?: string;
  sublocality_name_type?: string;
  lang?: string;
  /** "name" where the subdivisions' keys are their local names (JP 東京都, IE Co. Dublin); else they are the codes */
  sub_key?: 'name';
  /** [code, local name], [code, local name, latin name], or [code, local name, latin name or null, key] */
  subs?: ([string, string] | [string, string, string] | [string, string, string | null, string])[];
}

export interface Subdivision {
  code: string;
  name: string;
  /** Google's key: how an address in the country's language writes it (TX, 東京都, Co. Dublin, AGS) */
  key: string;
  /** the name in Latin script, where Google gives one and it differs (東京都 → TOKYO) */
  latinName?: string;
}

/** The fields a shopper fills in, the country aside (it comes first and decides the rest). */
export type FormField = Exclude<AddressField, 'country'>;

export interface AddressFormat {
  country: string;
  /** Google's format string ("%N%n%O%n%A%n%C, %S %Z"): how the country writes an address, literals and all */
  layout: string;
  /** the fields in the country's order, a row per line of its addresses */
  rows: FormField[][];
  required: FormField[];
  /** what the state and postal-code fields are called there (address.prefecture, address.eircode…) */
  stateLabel: MessageKey;
  postalLabel: MessageKey;
  cityLabel: MessageKey;
  /** the name types the refusals name (state, prefecture…; zip, pin, postal…) */
  stateType: string;
  postalType: string;
  cityType: string;
  /** the postal code's pattern, unanchored, as Google writes it; null where the data has none */
  postalPattern: string | null;
  postalExample: string | null;
  /** the country's language as the data names it (ja, zh-hans…): its own script for its subdivisions' names */
  language: string | null;
  subdivisions: Subdivision[];
}

const STATE_TYPES = [
  'area',
  'county',
  'department',
  'district',
  'do_si',
  'emirate',
  'island',
  'oblast',
  'parish',
  'prefecture',
  'province',
  'state',
] as const;
const POSTAL_TYPES = {
  postal: 'address.postal_code',
  zip: 'address.zip_code',
  pin: 'address.pin_code',
  eircode: 'address.eircode',
} as const;
const CITY_TYPES = {
  city: 'address.city',
  post_town: 'address.post_town',
  suburb: 'address.suburb',
  district: 'address.district',
} as const;

const has = <T extends object>(table: T, key: string | undefined): key is keyof T & string =>
  key !== undefined && Object.hasOwn(table, key);

/** %N name, %A street, %C city, %S state, %Z postal code; %O, %D, %X (organization, dependent locality, sorting code) we do not ask. */
const FIELDS_OF: Readonly<Record<string, FormField[]>> = {
  N: ['fname', 'lname'],
  A: ['address1', 'address2'],
  C: ['city'],
  S: ['state'],
  Z: ['zipcode'],
};

/** The rows of a format string: "%N%n%O%n%A%n%C, %S %Z" → [[fname, lname], [address1], [address2], [city, state, zipcode]]. */
export function rowsOf(fmt: string): FormField[][] {
  const rows: FormField[][] = [];
  for (const line of fmt.split('%n')) {
    let row: FormField[] = [];
    for (const match of line.matchAll(/%([A-Z])/g)) {
      const fields = FIELDS_OF[match[1] ?? ''];
      if (!fields) continue;
      if (match[1] === 'A') {
        // Street lines each take a row of their own.
        if (row.length > 0) rows.push(row);
        rows.push([fields[0] as FormField], [fields[1] as FormField]);
        row = [];
      } else row.push(...fields);
    }
    if (row.length > 0) rows.push(row);
  }
  return rows;
}

/** A country's format from its record, the data's defaults (data/ZZ) filling what it does not say. */
export function formatFromRecord(
  country: string,
  record: CountryRecord,
  defaults: CountryRecord,
): AddressFormat {
  const layout = record.fmt ?? defaults.fmt ?? '%N%n%A%n%C';
  const rows = rowsOf(layout);
  const shown = new Set(rows.flat());
  const letters = record.require ?? defaults.require ?? '';
  // A name is always asked for (the order is addressed to someone); the data's letters decide the rest.
  const required: FormField[] = ['fname', 'lname'];
  for (const letter of letters) {
    const field = { A: 'address1', C: 'city', S: 'state', Z: 'zipcode' }[letter] as FormField | undefined;
    if (field && shown.has(field) && !required.includes(field)) required.push(field);
  }
  const stateType = record.state_name_type ?? defaults.state_name_type ?? 'province';
  const postalType = record.zip_name_type ?? defaults.zip_name_type ?? 'postal';
  const cityType = record.locality_name_type ?? 'city';
  return {
    country,
    layout,
    rows,
    required,
    stateLabel: STATE_TYPES.includes(stateType as (typeof STATE_TYPES)[number])
      ? (`address.${stateType}` as MessageKey)
      : 'address.province',
    postalLabel: has(POSTAL_TYPES, postalType) ? POSTAL_TYPES[postalType] : 'address.postal_code',
    cityLabel: has(CITY_TYPES, cityType) ? CITY_TYPES[cityType] : 'address.city',
    stateType,
    postalType,
    cityType,
    postalPattern: record.zip ?? null,
    postalExample: record.zipex?.split(',')[0] ?? null,
    language: record.lang ?? null,
    subdivisions: (record.subs ?? []).map(([code, name, latinName, key]) => {
      const subdivision = { code, name, key: key ?? (record.sub_key === 'name' ? name : code) };
      return latinName ? { ...subdivision, latinName } : subdivision;
    }),
  };
}

function speaksCountryLanguage(format: AddressFormat, language: string): boolean {
  const base = (tag: string) => tag.split('-')[0]?.toLowerCase();
  return format.language !== null && base(format.language) === base(language);
}

/**
 * A subdivision's name for a page in `language` (the address form's choices): the local name where the page speaks
 * the country's language (東京都 on a Japanese page), else the Latin name where Google gives one (TOKYO), else the
 * local name.
 */
export function subdivisionName(subdivision: Subdivision, format: AddressFormat, language: string): string {
  if (speaksCountryLanguage(format, language) || subdivision.latinName === undefined) return subdivision.name;
  return subdivision.latinName;
}

/**
 * A subdivision as a written address shows it, as Google's formatter does (docs/languages.md, "Addresses"): its key
 * in the country's language (TX, 東京都, Co. Dublin), else the Latin name where Google gives one (TOKYO), else the key.
 */
export function subdivisionAsWritten(
  subdivision: Subdivision,
  format: AddressFormat,
  language: string,
): string {
  if (speaksCountryLanguage(format, language) || subdivision.latinName === undefined) return subdivision.key;
  return subdivision.latinName;
}

export function findSubdivision(format: AddressFormat, value: string): Subdivision | undefined {
  const wanted = value.trim().toUpperCase();
  return format.subdivisions.find((subdivision) => subdivision.code.toUpperCase() === wanted);
}

/** Whether a postal code has the country's shape: the whole of it, any case, spaces around it ignored. */
export function postalCodeMatches(format: AddressFormat, postalCode: string): boolean {
  if (format.postalPattern === null) return true;
  return new RegExp(`^(?:${format.postalPattern})$`, 'i').test(postalCode.trim());
}

export type AddressValues = Partial<Record<AddressField, string | undefined>>;
export type AddressProblems = Partial<Record<AddressField, Message>>;

/** Everything wrong with an address of the format's country, each a message the shopper can act on. */
export function addressProblems(address: AddressValues, format: AddressFormat): AddressProblems {
  const problems: AddressProblems = {};
  const value = (field: AddressField) => address[field]?.trim() ?? '';
  const required = new Set(format.required);
  const shown = new Set(format.rows.flat());
  if (required.has('fname') && value('fname') === '') problems.fname = { key: 'address.error.fname' };
  if (required.has('lname') && value('lname') === '') problems.lname = { key: 'address.error.lname' };
  if (required.has('address1') && value('address1') === '')
    problems.address1 = { key: 'address.error.address1' };
  if (required.has('city') && value('city') === '') {
    problems.city = { key: 'address.error.city', values: { type: format.cityType } };
  }
  const state = value('state');
  if (shown.has('state')) {
    const type = { type: format.stateType };
    if (state === '') {
      if (required.has('state')) problems.state = { key: 'address.error.state_required', values: type };
    } else if (format.subdivisions.length > 0 && !findSubdivision(format, state)) {
      problems.state = { key: 'address.error.state_unknown', values: type };
    }
  }
  const postal = value('zipcode');
  if (shown.has('zipcode')) {
    if (postal === '') {
      if (required.has('zipcode')) {
        problems.zipcode = { key: 'address.error.postal_required', values: { type: format.postalType } };
      }
    } else if (!postalCodeMatches(format, postal)) {
      problems.zipcode = {
        key: 'address.error.postal_format',
        values: { type: format.postalType, example: format.postalExample ?? '' },
      };
    }
  }
  return problems;
}

/** How an address is written where its country's format is not known (yet): the fields as the shopper gave them. */
const PLAIN_LAYOUT = '%N%n%A%n%C %S %Z';

type Token = { literal: string } | { value: string };

/** One line of a format as literals and the values of its fields ("%C, %S %Z" → Austin · ", " · TX · " " · 78701). */
function tokensOf(line: string, valueOf: (letter: string) => string): Token[] {
  // Split by a capturing pattern: literals at even places, the fields' letters at odd ones.
  return line
    .split(/%([A-Za-z])/)
    .flatMap((part, index): Token[] =>
      index % 2 === 1 ? [{ value: valueOf(part) }] : part === '' ? [] : [{ literal: part }],
    );
}

/**
 * A line with its empty fields left out: a literal between two given fields stays (the first of several, when an
 * empty field came between); one before the line's first field or after its last stays with its neighbour ("〒%Z").
 */
function writeLine(tokens: readonly Token[]): string {
  let out = '';
  let between: string | null = null;
  for (const [index, token] of tokens.entries()) {
    if ('literal' in token) {
      if (out !== '' || index === 0) between ??= token.literal;
    } else if (token.value !== '') {
      out += (between ?? '') + token.value;
      between = null;
    } else if (out === '') {
      // A prefix belongs to its field ("〒%Z"): an empty one takes it away.
      between = null;
    }
  }
  const [beforeLast, last] = tokens.slice(-2);
  if (last && 'literal' in last && beforeLast && 'value' in beforeLast && beforeLast.value !== '')
    out += last.literal;
  return out.trim();
}

/**
 * An address written as its country writes it, a string per line (docs/languages.md, "Addresses"): the fields in
 * the order and with the punctuation of the country's format (Japan's postal code first, "10115 Berlin", "Austin,
 * TX 78701"), the state as the country writes it for a page in `language` (subdivisionAsWritten), and `country`
 * (its name) last when given. Without the country's format (its data not loaded yet) the fields are written as they were given.
 */
export function addressLines(
  address: AddressValues,
  format: AddressFormat | null,
  language: string,
  country?: string,
): string[] {
  const value = (field: AddressField) => address[field]?.trim() ?? '';
  const state = value('state');
  const subdivision = format && state !== '' ? findSubdivision(format, state) : undefined;
  const values: Readonly<Record<string, string>> = {
    N: [value('fname'), value('lname')].filter(Boolean).join(' '),
    // Each street line a line of its own, split again below.
    A: [value('address1'), value('address2')].filter(Boolean).join('\n'),
    C: value('city'),
    S: subdivision && format ? subdivisionAsWritten(subdivision, format, language) : state,
    Z: value('zipcode'),
    // %O, %D, %X (organization, dependent locality, sorting code) are not asked: empty, with their punctuation.
  };
  const lines = (format?.layout ?? PLAIN_LAYOUT)
    .split('%n')
    .flatMap((line) => writeLine(tokensOf(line, (letter) => values[letter] ?? '')).split('\n'))
    .map((line) => line.trim())
    .filter(Boolean);
  const countryLine = country?.trim() ?? '';
  return countryLine === '' ? lines : [...lines, countryLine];
}

/** What joins an address's lines on one line: the language's comma, not a list's "and" (Intl.ListFormat's unit). */
export function addressSeparator(language: string): string {
  const base = language.split('-')[0]?.toLowerCase();
  return base === 'ja' ? ' ' : base === 'ar' ? '، ' : ', ';
}

/** An address on one line, for a finished step: its lines joined by the language's comma. */
export function addressOnOneLine(
  address: AddressValues,
  format: AddressFormat | null,
  language: string,
  country?: string,
): string {
  return addressLines(address, format, language, country).join(addressSeparator(language));
}
