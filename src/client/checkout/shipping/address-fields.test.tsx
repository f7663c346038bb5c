import { type I18n } from '@lingui/core';
import { setupPageI18n } from '../../../i18n/page-i18n.js';
import { I18nProvider } from '@lingui/react';
import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import arabic from 'virtual:catalogue/all/ar';
import english from 'virtual:catalogue/all/en';
import japanese from 'virtual:catalogue/all/ja';
import { describe, expect, it, vi } from 'vitest';
import type { FieldBinding } from '../use-section-fields.js';
import { AddressFields } from './address-fields.js';

// The country's fields wait for the address data's chunk: its first import takes a while on a busy machine.
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const i18nOf = (locale: string, messages: I18n['messages']) =>
  setupPageI18n({ locale, messages: { [locale]: messages } });

/** The address fields alone, bound to plain state: what the shopper sees for a country, in a page language. */
function Harness({ country }: { country: string }) {
  const [values, setValues] = useState<Record<string, string>>({ ship_country: country });
  const bind = (name: string): FieldBinding => ({
    name,
    value: values[name] ?? '',
    error: undefined,
    onChange: (value) => setValues((current) => ({ ...current, [name]: value })),
    onBlur: () => undefined,
  });
  return (
    <form aria-label="address">
      <AddressFields prefix="ship" bind={bind} />
    </form>
  );
}

function renderIn(i18n: I18n, country: string) {
  const user = userEvent.setup();
  render(
    <I18nProvider i18n={i18n}>
      <Harness country={country} />
    </I18nProvider>,
  );
  return user;
}

/** The form's controls in the order the shopper meets them, by name. */
const fieldOrder = () =>
  Array.from(screen.getByRole('form').querySelectorAll('input, select')).map((element) =>
    element.getAttribute('name'),
  );

describe('address fields', () => {
  it('follow Japan’s order in Japanese: postal code, prefecture list in kanji, street, then name', async () => {
    renderIn(i18nOf('ja', japanese), 'JP');
    const prefecture = await screen.findByRole('combobox', { name: '都道府県' });
    expect(fieldOrder()).toEqual([
      'ship_country',
      'ship_zipcode',
      'ship_state',
      'ship_address1',
      'ship_address2',
      'ship_fname',
      'ship_lname',
    ]);
    expect(within(prefecture).getByRole('option', { name: '東京都' })).toHaveProperty('value', '13');
    expect(within(prefecture).getAllByRole('option')).toHaveLength(48);
    expect(screen.getByLabelText('郵便番号').getAttribute('autocomplete')).toBe('shipping postal-code');
    expect(screen.getByLabelText('郵便番号').getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByRole('combobox', { name: '国または地域' })).toHaveProperty('value', 'JP');
    expect(screen.getByRole('option', { name: '日本' })).toBeTruthy();
    // Japan's addresses have no city line of their own.
    expect(screen.queryByLabelText('市区町村')).toBeNull();
  });

  it('names Japan’s prefectures in Latin letters on an English page', async () => {
    renderIn(i18nOf('en', english), 'JP');
    const prefecture = await screen.findByRole('combobox', { name: 'Prefecture' });
    expect(within(prefecture).getByRole('option', { name: 'TOKYO' })).toHaveProperty('value', '13');
    expect(screen.getByLabelText('Postal code')).toBeTruthy();
  });

  it('asks Ireland for an optional county from its list and an optional Eircode', async () => {
    const user = renderIn(i18nOf('en', english), 'IE');
    const county = await screen.findByRole('combobox', { name: /County/ });
    expect(county.getAttribute('required')).toBeNull();
    expect(within(county).getByRole('option', { name: 'Co. Dublin' })).toHaveProperty('value', 'D');
    const eircode = screen.getByLabelText(/Eircode/);
    expect(eircode.getAttribute('required')).toBeNull();
    expect(eircode.getAttribute('inputmode')).toBe('text');
    expect(fieldOrder()).toEqual([
      'ship_country',
      'ship_fname',
      'ship_lname',
      'ship_address1',
      'ship_address2',
      'ship_city',
      'ship_state',
      'ship_zipcode',
    ]);
    await user.selectOptions(county, 'D');
    // Germany has no states: the county goes, with its value.
    await user.selectOptions(screen.getByLabelText('Country or region'), 'DE');
    expect(screen.queryByRole('combobox', { name: /County/ })).toBeNull();
    expect(screen.getByLabelText('Postal code').getAttribute('required')).not.toBeNull();
    await user.selectOptions(screen.getByLabelText('Country or region'), 'IE');
    expect((await screen.findByRole('combobox', { name: /County/ })) as HTMLSelectElement).toHaveProperty(
      'value',
      '',
    );
  });

  it('speaks Arabic, and names Egypt’s governorates in Arabic', async () => {
    renderIn(i18nOf('ar', arabic), 'EG');
    const governorate = await screen.findByRole('combobox', { name: /المحافظة/ });
    expect(within(governorate).getByRole('option', { name: 'القاهرة' })).toHaveProperty('value', 'C');
    expect(screen.getByLabelText(/الرمز البريدي/)).toBeTruthy();
    expect(screen.getByRole('option', { name: 'مصر' })).toBeTruthy();
  });
});
