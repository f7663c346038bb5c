// Builds src/domain/address/address-data.json, every country's address rules, from Google's libaddressinput data
// (docs/languages.md, "Addresses"). Our code never writes a country's rules by hand: change them here, from the data.
//
//   npx tsx scripts/address-data.ts <countryinfo.txt> [region_data_constants.cc] --commit <sha>
//
// countryinfo.txt (testdata/ in google/libaddressinput) has a line `data/XX={json}` per country: the field order,
// required fields, postal-code pattern and example, name types and subdivisions. Its country-level fields lag the
// library's own copy, cpp/src/region_data_constants.cc (generated from the same service): given that file, its
// fmt, require, name types and examples win, and a pattern that refuses its newer examples is dropped as stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Raw = Record<string, string | undefined>;

const COUNTRY_FIELDS = [
  'fmt',
  'require',
  'zip',
  'zipex',
  'state_name_type',
  'zip_name_type',
  'locality_name_type',
  'sublocality_name_type',
  'lang',
] as const;

/**
 * One subdivision: [code, local name], [code, local name, latin name], or [code, local name, latin name or null,
 * Google's key] where the key is neither the code nor the name (MX `AGS`, saved as `AGU`, named Aguascalientes).
 */
export type Subdivision =
  [string, string] | [string, string, string] | [string, string, string | null, string];

export type CountryRecord = Partial<Record<(typeof COUNTRY_FIELDS)[number], string>> & {
  /** "name" where the subdivisions' keys are their local names (JP 東京都, IE Co. Dublin); else they are the codes */
  sub_key?: 'name';
  subs?: Subdivision[];
};

export interface AddressData {
  source: string;
  defaults: CountryRecord;
  countries: Record<string, CountryRecord>;
}

/** Every `data/XX={json}` and `data/XX--lang={json}` line, keyed "XX" or "XX--lang". */
export function parseCountryInfo(text: string): Map<string, Raw> {
  const entries = new Map<string, Raw>();
  for (const line of text.split('\n')) {
    const match = /^data\/([A-Z]{2}(?:--[A-Za-z-]+)?)=(\{.*\})\s*$/.exec(line);
    if (match?.[1] && match[2]) entries.set(match[1], JSON.parse(match[2]) as Raw);
  }
  return entries;
}

/** The country records of region_data_constants.cc: `{"XX", "{" R"(…)" … "}"}`. */
export function parseRegionConstants(text: string): Map<string, Raw> {
  const entries = new Map<string, Raw>();
  for (const match of text.matchAll(/\{"([A-Z]{2})", "\{"\n((?:\s+R"\(.*\)"\n)*)\s+"\}"\}/g)) {
    const body = [...(match[2] ?? '').matchAll(/R"\((.*)\)"/g)].map((part) => part[1]).join('');
    if (match[1]) entries.set(match[1], JSON.parse(`{${body}}`) as Raw);
  }
  return entries;
}

const split = (value: string | undefined) => (value === undefined || value === '' ? [] : value.split('~'));

function subdivisions(
  raw: Raw,
  latinVariant: Raw | undefined,
): Pick<CountryRecord, 'sub_key' | 'subs'> | undefined {
  const keys = split(raw.sub_keys);
  if (keys.length === 0) return undefined;
  const names = split(raw.sub_names);
  const isoids = split(raw.sub_isoids);
  const latin = split(raw.sub_lnames ?? latinVariant?.sub_names);
  const entries = keys.map((key, index) => ({
    key,
    // The code saved with an address: the ISO 3166-2 subdivision where Google gives it, else Google's key.
    code: isoids[index] || key,
    local: names[index] || key,
    latinName: latin[index],
  }));
  // The key (what an address in the country's language writes) is kept only where the reader cannot tell it:
  // the country says once whether its keys are the names or the codes, and a key that is neither is written out.
  const keyIsName = entries.some(({ key, code, local }) => key !== code && key === local);
  const subs = entries.map(({ key, code, local, latinName }): Subdivision => {
    const latinOrNull = latinName && latinName !== local ? latinName : null;
    if (key !== (keyIsName ? local : code)) return [code, local, latinOrNull, key];
    return latinOrNull === null ? [code, local] : [code, local, latinOrNull];
  });
  return keyIsName ? { sub_key: 'name', subs } : { subs };
}

function zipStillHolds(zip: string, examples: string | undefined): boolean {
  const pattern = new RegExp(`^(?:${zip})$`, 'i');
  return split(examples?.replaceAll(',', '~')).every((example) => pattern.test(example));
}

export function buildAddressData(
  info: Map<string, Raw>,
  constants: Map<string, Raw>,
  source: string,
): AddressData {
  const countries: Record<string, CountryRecord> = {};
  const pick = (raw: Raw): CountryRecord => {
    const record: CountryRecord = {};
    for (const field of COUNTRY_FIELDS) if (raw[field] !== undefined) record[field] = raw[field];
    return record;
  };
  for (const [id, raw] of [...info].sort(([a], [b]) => a.localeCompare(b))) {
    if (id.includes('--') || id === 'ZZ') continue;
    const newer = constants.get(id);
    const record = pick(raw);
    if (newer) {
      for (const field of COUNTRY_FIELDS) {
        if (field === 'zip' || field === 'lang') continue;
        if (newer[field] !== undefined) record[field] = newer[field];
        else if (field !== 'zipex') delete record[field];
      }
      if (record.zip !== undefined && !zipStillHolds(record.zip, record.zipex)) delete record.zip;
    }
    const latinVariant = [...info].find(
      ([key, value]) => key.startsWith(`${id}--`) && value.lang === 'en',
    )?.[1];
    Object.assign(record, subdivisions(raw, latinVariant));
    countries[id] = record;
  }
  return { source, defaults: pick(info.get('ZZ') ?? {}), countries };
}

function main(args: string[]) {
  const commitAt = args.indexOf('--commit');
  const commit = commitAt >= 0 ? args[commitAt + 1] : undefined;
  const files = args.filter((_, index) => index !== commitAt && index !== commitAt + 1);
  const [infoPath, constantsPath] = files;
  if (!infoPath || !commit) {
    console.error(
      'Usage: tsx scripts/address-data.ts <countryinfo.txt> [region_data_constants.cc] --commit <sha>',
    );
    process.exitCode = 1;
    return;
  }
  const source =
    `google/libaddressinput ${commit}: testdata/countryinfo.txt` +
    (constantsPath ? ' and cpp/src/region_data_constants.cc' : '') +
    '. Apache License 2.0 (docs/languages.md, "Addresses"). Generated by scripts/address-data.ts: do not edit.';
  const data = buildAddressData(
    parseCountryInfo(readFileSync(infoPath, 'utf8')),
    constantsPath ? parseRegionConstants(readFileSync(constantsPath, 'utf8')) : new Map(),
    source,
  );
  const out = fileURLToPath(new URL('../src/domain/address/address-data.json', import.meta.url));
  // One country a line: small diffs when Google's data changes.
  const lines = Object.entries(data.countries).map(
    ([code, record]) => `    ${JSON.stringify(code)}: ${JSON.stringify(record)}`,
  );
  writeFileSync(
    out,
    `{\n  "source": ${JSON.stringify(data.source)},\n  "defaults": ${JSON.stringify(data.defaults)},\n  "countries": {\n${lines.join(',\n')}\n  }\n}\n`,
  );
  console.log(`${Object.keys(data.countries).length} countries written to ${out}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
