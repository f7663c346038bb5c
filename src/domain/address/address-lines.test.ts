import { describe, expect, it } from 'vitest';
import { addressFormatOf } from './address-data.js';
import { addressLines, addressOnOneLine, addressSeparator, type AddressValues } from './address-format.js';

const ada = { fname: 'Ada', lname: 'Lovelace' };

function lines(address: AddressValues, language = 'en', country?: string): string[] {
  return addressLines(address, addressFormatOf(address.country ?? ''), language, country);
}

describe('addressLines', () => {
  it('writes a US address with its city, state and ZIP code on one line, the state abbreviated', () => {
    const austin = { ...ada, address1: '1 Main St', address2: 'Suite 5', city: 'Austin', state: 'TX' };
    expect(lines({ ...austin, zipcode: '78701', country: 'US' }, 'en', 'United States')).toEqual([
      'Ada Lovelace',
      '1 Main St',
      'Suite 5',
      'Austin, TX 78701',
      'United States',
    ]);
    // The abbreviation is how the country writes it, whatever the page's language (not "Texas", as the form names it).
    expect(lines({ ...austin, zipcode: '78701', country: 'US' }, 'fr').at(-1)).toBe('Austin, TX 78701');
    expect(lines({ ...austin, zipcode: '78701', country: 'US' }, 'ja').at(-1)).toBe('Austin, TX 78701');
  });

  it('writes Canadian and Australian states by their abbreviations too', () => {
    const street = { ...ada, address1: '1 Main St' };
    expect(
      lines({ ...street, city: 'Ottawa', state: 'ON', zipcode: 'K1A 0B1', country: 'CA' }, 'fr'),
    ).toEqual(['Ada Lovelace', '1 Main St', 'Ottawa ON K1A 0B1']);
    expect(lines({ ...street, city: 'Sydney', state: 'NSW', zipcode: '2000', country: 'AU' }).at(-1)).toBe(
      'Sydney NSW 2000',
    );
  });

  it('writes a Mexican state by Google’s key, neither its saved ISO code nor its name', () => {
    const guadalajara = {
      ...ada,
      address1: 'Av. Juárez 1',
      city: 'Guadalajara',
      zipcode: '44100',
      country: 'MX',
    };
    expect(lines({ ...guadalajara, state: 'JAL' }, 'es').at(-1)).toBe('44100 Guadalajara, JAL');
    // Saved as AGU (ISO 3166-2), named Aguascalientes in the form, written AGS.
    expect(
      lines({ ...guadalajara, city: 'Aguascalientes', state: 'AGU', zipcode: '20000' }, 'en').at(-1),
    ).toBe('20000 Aguascalientes, AGS');
  });

  it('leaves out an empty field with the punctuation that went with it', () => {
    const austin = { ...ada, address1: '1 Main St', city: 'Austin', country: 'US' };
    expect(lines({ ...austin, state: '', zipcode: '78701' }).at(-1)).toBe('Austin, 78701');
    expect(lines({ ...austin, state: 'TX', zipcode: '' }).at(-1)).toBe('Austin, TX');
    expect(lines({ ...austin, city: '', state: 'TX', zipcode: '78701' }).at(-1)).toBe('TX 78701');
  });

  it('writes a British address with its post town and postcode on lines of their own', () => {
    expect(
      lines({ ...ada, address1: '10 Downing St', city: 'London', zipcode: 'SW1A 2AA', country: 'GB' }),
    ).toEqual(['Ada Lovelace', '10 Downing St', 'London', 'SW1A 2AA']);
  });

  it('puts a German postal code before the city', () => {
    expect(
      lines({ ...ada, address1: 'Invalidenstraße 1', city: 'Berlin', zipcode: '10115', country: 'DE' }),
    ).toEqual(['Ada Lovelace', 'Invalidenstraße 1', '10115 Berlin']);
  });

  it('writes a Japanese address from the postal code to the name, the prefecture in Japanese on a Japanese page', () => {
    const tokyo = {
      fname: '太郎',
      lname: '山田',
      address1: '千代田区千代田1-1',
      city: '',
      state: '13',
      zipcode: '100-0001',
      country: 'JP',
    };
    expect(lines(tokyo, 'ja', '日本')).toEqual([
      '〒100-0001',
      '東京都',
      '千代田区千代田1-1',
      '太郎 山田',
      '日本',
    ]);
    // Elsewhere the prefecture is written in Latin script, as Google's data names it.
    expect(lines(tokyo, 'en')[1]).toBe('TOKYO');
    expect(lines(tokyo, 'de')[1]).toBe('TOKYO');
    // Without a postal code the 〒 mark goes with it.
    expect(lines({ ...tokyo, zipcode: '' }, 'ja')[0]).toBe('東京都');
  });

  it('writes a Brazilian address with the city and state joined by a dash, the CEP last', () => {
    expect(
      lines({
        ...ada,
        address1: 'Av. Paulista, 1000',
        city: 'São Paulo',
        state: 'SP',
        zipcode: '01310-100',
        country: 'BR',
      }),
    ).toEqual(['Ada Lovelace', 'Av. Paulista, 1000', 'São Paulo-SP', '01310-100']);
  });

  it('writes an address with no city or postal code in its format, and subdivisions as their countries do', () => {
    expect(lines({ ...ada, address1: 'Sheikh Zayed Rd', city: 'x', state: 'Dubai', country: 'AE' })).toEqual([
      'Ada Lovelace',
      'Sheikh Zayed Rd',
      'Dubai',
    ]);
    expect(
      lines({
        ...ada,
        address1: '1 Grafton St',
        city: 'Dublin',
        state: 'D',
        zipcode: 'D02 AF30',
        country: 'IE',
      }),
    ).toEqual(['Ada Lovelace', '1 Grafton St', 'Dublin', 'Co. Dublin', 'D02 AF30']);
    // Saved as D (ISO 3166-2); "Co. Dublin" on every page, Google having no other name for it.
    expect(
      lines({ ...ada, address1: '1 Grafton St', city: 'Dublin', state: 'D', country: 'IE' }, 'ja').at(-1),
    ).toBe('Co. Dublin');
    expect(
      lines(
        { ...ada, address1: '中关村大街1号', city: '海淀区', state: '11', zipcode: '100080', country: 'CN' },
        'zh',
      ),
    ).toEqual(['100080', '北京市海淀区', '中关村大街1号', 'Ada Lovelace']);
  });

  it('writes the fields as given while the country’s format is not known', () => {
    const address = {
      ...ada,
      address1: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zipcode: '78701',
      country: 'US',
    };
    expect(addressLines(address, null, 'en', 'United States')).toEqual([
      'Ada Lovelace',
      '1 Main St',
      'Austin TX 78701',
      'United States',
    ]);
  });
});

describe('addressOnOneLine', () => {
  it('joins the lines with the language’s comma', () => {
    const berlin = { ...ada, address1: 'Invalidenstraße 1', city: 'Berlin', zipcode: '10115', country: 'DE' };
    expect(addressOnOneLine(berlin, addressFormatOf('DE'), 'de', 'Deutschland')).toBe(
      'Ada Lovelace, Invalidenstraße 1, 10115 Berlin, Deutschland',
    );
    expect(addressSeparator('ja')).toBe(' ');
    expect(addressSeparator('ar')).toBe('، ');
    expect(addressSeparator('pt-BR')).toBe(', ');
  });
});
