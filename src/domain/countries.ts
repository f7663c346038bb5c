/**
 * Countries, their states and postal-code formats. Country names come from the platform (Intl.DisplayNames), so
 * only codes ship here. States are listed where an address needs one (the state is then required and checked).
 */
export interface State {
  code: string;
  name: string;
}

export interface PostalFormat {
  pattern: RegExp;
  /** An example shoppers can copy the shape of: "Enter a ZIP code like 73301". */
  example: string;
  label: string;
}

// ISO 3166-1 alpha-2, officially assigned codes.
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

const COUNTRY_SET = new Set(COUNTRY_CODES);

export function isCountryCode(code: string): boolean {
  return COUNTRY_SET.has(code);
}

const states = (list: string): State[] =>
  list.split('|').map((entry) => {
    const [code = '', name = ''] = entry.split(':');
    return { code, name };
  });

// Parsed on first use, not when the module loads (the page loads this module before any address is shown).
const STATE_LISTS: Readonly<Record<string, string>> = {
  US:
    'AL:Alabama|AK:Alaska|AZ:Arizona|AR:Arkansas|CA:California|CO:Colorado|CT:Connecticut|DE:Delaware|' +
    'DC:District of Columbia|FL:Florida|GA:Georgia|HI:Hawaii|ID:Idaho|IL:Illinois|IN:Indiana|IA:Iowa|KS:Kansas|' +
    'KY:Kentucky|LA:Louisiana|ME:Maine|MD:Maryland|MA:Massachusetts|MI:Michigan|MN:Minnesota|MS:Mississippi|' +
    'MO:Missouri|MT:Montana|NE:Nebraska|NV:Nevada|NH:New Hampshire|NJ:New Jersey|NM:New Mexico|NY:New York|' +
    'NC:North Carolina|ND:North Dakota|OH:Ohio|OK:Oklahoma|OR:Oregon|PA:Pennsylvania|RI:Rhode Island|' +
    'SC:South Carolina|SD:South Dakota|TN:Tennessee|TX:Texas|UT:Utah|VT:Vermont|VA:Virginia|WA:Washington|' +
    'WV:West Virginia|WI:Wisconsin|WY:Wyoming|AS:American Samoa|GU:Guam|MP:Northern Mariana Islands|' +
    'PR:Puerto Rico|VI:U.S. Virgin Islands|AA:Armed Forces Americas|AE:Armed Forces Europe|AP:Armed Forces Pacific',
  CA:
    'AB:Alberta|BC:British Columbia|MB:Manitoba|NB:New Brunswick|NL:Newfoundland and Labrador|' +
    'NT:Northwest Territories|NS:Nova Scotia|NU:Nunavut|ON:Ontario|PE:Prince Edward Island|QC:Quebec|' +
    'SK:Saskatchewan|YT:Yukon',
  AU:
    'ACT:Australian Capital Territory|NSW:New South Wales|NT:Northern Territory|QLD:Queensland|' +
    'SA:South Australia|TAS:Tasmania|VIC:Victoria|WA:Western Australia',
  MX:
    'AGU:Aguascalientes|BCN:Baja California|BCS:Baja California Sur|CAM:Campeche|CHP:Chiapas|CHH:Chihuahua|' +
    'CMX:Ciudad de México|COA:Coahuila|COL:Colima|DUR:Durango|GUA:Guanajuato|GRO:Guerrero|HID:Hidalgo|' +
    'JAL:Jalisco|MEX:Estado de México|MIC:Michoacán|MOR:Morelos|NAY:Nayarit|NLE:Nuevo León|OAX:Oaxaca|' +
    'PUE:Puebla|QUE:Querétaro|ROO:Quintana Roo|SLP:San Luis Potosí|SIN:Sinaloa|SON:Sonora|TAB:Tabasco|' +
    'TAM:Tamaulipas|TLA:Tlaxcala|VER:Veracruz|YUC:Yucatán|ZAC:Zacatecas',
};

const parsedStates = new Map<string, readonly State[]>();

/** The states of a country whose addresses need one, else an empty list. */
export function statesOf(country: string): readonly State[] {
  const list = Object.hasOwn(STATE_LISTS, country) ? STATE_LISTS[country] : undefined;
  if (list === undefined) return [];
  let parsed = parsedStates.get(country);
  if (!parsed) {
    parsed = states(list);
    parsedStates.set(country, parsed);
  }
  return parsed;
}

export function countryHasStates(country: string): boolean {
  return statesOf(country).length > 0;
}

export function isStateOf(country: string, state: string): boolean {
  return statesOf(country).some((entry) => entry.code === state);
}

const POSTAL: Readonly<Record<string, PostalFormat>> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, example: '73301', label: 'ZIP code' },
  CA: {
    pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i,
    example: 'K1A 0B1',
    label: 'postal code',
  },
  GB: {
    pattern:
      /^(GIR ?0AA|[A-PR-UWYZ](\d[A-HJKPS-UW0-9]?|[A-HK-Y]\d[ABEHMNPRV-Y0-9]?) ?\d[ABD-HJLNP-UW-Z]{2})$/i,
    example: 'SW1A 1AA',
    label: 'postcode',
  },
  AU: { pattern: /^\d{4}$/, example: '2000', label: 'postcode' },
  NZ: { pattern: /^\d{4}$/, example: '6011', label: 'postcode' },
  DE: { pattern: /^\d{5}$/, example: '10115', label: 'postal code' },
  FR: { pattern: /^\d{5}$/, example: '75001', label: 'postal code' },
  IT: { pattern: /^\d{5}$/, example: '00118', label: 'postal code' },
  ES: { pattern: /^\d{5}$/, example: '28001', label: 'postal code' },
  NL: { pattern: /^\d{4} ?[A-Z]{2}$/i, example: '1011 AB', label: 'postal code' },
  BE: { pattern: /^\d{4}$/, example: '1000', label: 'postal code' },
  AT: { pattern: /^\d{4}$/, example: '1010', label: 'postal code' },
  CH: { pattern: /^\d{4}$/, example: '8001', label: 'postal code' },
  SE: { pattern: /^\d{3} ?\d{2}$/, example: '114 55', label: 'postal code' },
  NO: { pattern: /^\d{4}$/, example: '0150', label: 'postal code' },
  DK: { pattern: /^\d{4}$/, example: '1050', label: 'postal code' },
  FI: { pattern: /^\d{5}$/, example: '00100', label: 'postal code' },
  IE: {
    pattern: /^([AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}$/i,
    example: 'D02 AF30',
    label: 'Eircode',
  },
  PT: { pattern: /^\d{4}-\d{3}$/, example: '1100-148', label: 'postal code' },
  PL: { pattern: /^\d{2}-\d{3}$/, example: '00-001', label: 'postal code' },
  CZ: { pattern: /^\d{3} ?\d{2}$/, example: '110 00', label: 'postal code' },
  JP: { pattern: /^\d{3}-?\d{4}$/, example: '100-0001', label: 'postal code' },
  MX: { pattern: /^\d{5}$/, example: '06000', label: 'postal code' },
  BR: { pattern: /^\d{5}-?\d{3}$/, example: '01310-100', label: 'CEP' },
  IN: { pattern: /^\d{6}$/, example: '110001', label: 'PIN code' },
  SG: { pattern: /^\d{6}$/, example: '018956', label: 'postal code' },
};

/** Countries where addresses commonly have no postal code: the field is optional there (checked when given). */
const POSTAL_CODE_OPTIONAL = new Set([
  'AE',
  'AG',
  'AO',
  'BS',
  'BZ',
  'CW',
  'FJ',
  'GH',
  'HK',
  'IE',
  'JM',
  'KI',
  'QA',
  'TV',
  'UG',
  'ZW',
]);

export function postalFormatOf(country: string): PostalFormat | null {
  return POSTAL[country] ?? null;
}

export function isPostalCodeRequired(country: string): boolean {
  return !POSTAL_CODE_OPTIONAL.has(country);
}

export type PostalCheck = { ok: true } | { ok: false; message: string };

/** Checks a postal code against its country's format, with a message that shows the expected shape. */
export function checkPostalCode(country: string, postalCode: string): PostalCheck {
  const value = postalCode.trim();
  const format = postalFormatOf(country);
  const label = format?.label ?? 'postal code';
  if (value === '') {
    return isPostalCodeRequired(country) ? { ok: false, message: `Enter a ${label}.` } : { ok: true };
  }
  if (format && !format.pattern.test(value)) {
    return { ok: false, message: `Enter a ${label} like ${format.example}.` };
  }
  if (!format && !/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/.test(value)) {
    return { ok: false, message: `Enter a valid ${label}.` };
  }
  return { ok: true };
}
