import { useCheckout } from '../checkout-context.js';
import { countryName } from '../format.js';
import { addressLine } from '../shipping/address-line.js';

/** The finished billing step in one line. */
export function BillingSummary() {
  const { form } = useCheckout();
  return <p>{addressLine(form.text, 'bill', countryName)}</p>;
}
