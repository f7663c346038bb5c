// Google's address data (src/domain/address) is a chunk of its own, loaded when an address form first shows: the
// checkout's first load carries none of it (docs/languages.md, "Addresses"). The page config gives the formats of
// the cart's own addresses, so a finished step is written at the first paint without it.
import { useEffect, useState } from 'react';
import type * as AddressDataModule from '../../../domain/address/address-data.js';
import type { AddressFormat } from '../../../domain/address/address-format.js';

type AddressData = typeof AddressDataModule;

let loaded: AddressData | null = null;
let loading: Promise<AddressData> | null = null;
let given: Readonly<Record<string, AddressFormat>> = {};

/** The formats the page config gives (`address_formats`): those of the countries of the cart's addresses. */
export function giveAddressFormats(formats: Readonly<Record<string, AddressFormat>> | undefined): void {
  given = formats ?? {};
}

function givenFormatOf(country: string): AddressFormat | null {
  const code = country.trim().toUpperCase();
  return Object.hasOwn(given, code) ? (given[code] ?? null) : null;
}

export function loadAddressData(): Promise<AddressData> {
  loading ??= import('../../../domain/address/address-data.js').then(
    (data) => (loaded = data),
    (error: unknown) => {
      // A chunk that did not download is asked for again by the next form.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The data once loaded, else null (the caller checks what it can without it). */
export function loadedAddressData(): AddressData | null {
  return loaded;
}

/**
 * A country's format, or null while the data loads or no country is chosen; the form renders again once loaded. A
 * form always loads the data (its checks and every other country need it).
 */
export function useAddressFormat(country: string): AddressFormat | null {
  useAddressData(true);
  return loaded?.addressFormatOf(country) ?? null;
}

/**
 * The format an address already given is written in (a finished step, the confirmation): the page config's for the
 * cart's own countries, else the data's, loaded only then.
 */
export function useWrittenAddressFormat(country: string): AddressFormat | null {
  const format = givenFormatOf(country);
  useAddressData(format === null);
  return format ?? loaded?.addressFormatOf(country) ?? null;
}

function useAddressData(needed: boolean): void {
  const [, setReady] = useState(loaded !== null);
  useEffect(() => {
    if (loaded || !needed) return;
    let live = true;
    loadAddressData().then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [needed]);
}
