import { useCheckout } from '../checkout-context.js';
import { countryName } from '../format.js';
import { addressLine } from '../shipping/address-line.js';
import { useT } from '../../i18n/use-t.js';

/** The finished billing step in one line. */
export function BillingSummary() {
  const { form } = useCheckout();
  const { locale } = useT();
  return <p>{addressLine(form.text, 'bill', (code) => countryName(code, locale))}</p>;
}
