import { createContext, useContext, type ReactNode } from 'react';

/**
 * The order-bump boxes, handed down by the page (checkout-app.tsx, from page-chunks.ts) to the order block as an
 * element of a chunk of their own, fetched only for a cart that has bumps. Null where no page provides it.
 */
export const BumpOffersSlot = createContext<ReactNode>(null);

export function useBumpOffers(): ReactNode {
  return useContext(BumpOffersSlot);
}
