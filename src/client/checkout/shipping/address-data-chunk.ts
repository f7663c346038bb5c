// Google's address data (src/domain/address) is a chunk of its own, loaded when an address form first shows: the
// checkout's first load carries none of it (docs/languages.md, "Addresses").
import { useEffect, useState } from 'react';
import type * as AddressDataModule from '../../../domain/address/address-data.js';
import type { AddressFormat } from '../../../domain/address/address-format.js';

type AddressData = typeof AddressDataModule;

let loaded: AddressData | null = null;
let loading: Promise<AddressData> | null = null;

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

/** A country's format, or null while the data loads or no country is chosen; the form renders again once loaded. */
export function useAddressFormat(country: string): AddressFormat | null {
  const [, setReady] = useState(loaded !== null);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    loadAddressData().then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return loaded?.addressFormatOf(country) ?? null;
}
