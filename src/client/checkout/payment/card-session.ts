import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';
import type { CardFieldsState, MountedCardFields } from './processors/card-processor.js';

/** What the page knows of the processor's card fields: whether they are there, and what they last said. */
export interface CardView {
  /** loading: the adapter's chunk or the frame is on its way; failed: it could not be loaded */
  status: 'loading' | 'ready' | 'failed';
  state: CardFieldsState;
  /** the adapter can put a test card's number into its field (test mode) */
  fillable: boolean;
}

export const EMPTY_CARD: CardFieldsState = { brand: null, complete: false, empty: true, error: null };
const LOADING: CardView = { status: 'loading', state: EMPTY_CARD, fillable: false };

/**
 * The card fields shared by the payment step: the frame component mounts them and reports here, placing the order
 * tokenizes and authenticates through them. The numbers themselves stay in the processor's frame.
 */
export interface CardSession {
  view: CardView;
  /** the mounted fields while the frame is on the page */
  fields: RefObject<MountedCardFields | null>;
  mounted(fields: MountedCardFields): void;
  changed(state: CardFieldsState): void;
  failed(): void;
  /** the frame left the page (another payment method, the section closed): its fields are gone */
  unmounted(): void;
}

export function useCardSession(): CardSession {
  const fields = useRef<MountedCardFields | null>(null);
  const [view, setView] = useState<CardView>(LOADING);
  const mounted = useCallback((next: MountedCardFields) => {
    fields.current = next;
    setView((current) => ({
      ...current,
      status: 'ready',
      fillable: typeof next.fillTestCard === 'function',
    }));
  }, []);
  const changed = useCallback((state: CardFieldsState) => setView((current) => ({ ...current, state })), []);
  const failed = useCallback(() => {
    fields.current = null;
    setView({ status: 'failed', state: EMPTY_CARD, fillable: false });
  }, []);
  const unmounted = useCallback(() => {
    fields.current = null;
    setView(LOADING);
  }, []);
  return useMemo(
    () => ({ view, fields, mounted, changed, failed, unmounted }),
    [view, mounted, changed, failed, unmounted],
  );
}
