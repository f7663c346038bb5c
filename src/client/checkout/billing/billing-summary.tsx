import { useCheckout } from '../checkout-context.js';
import { countryName } from '../format.js';
import { addressLine } from '../shipping/address-line.js';
import { useWrittenAddressFormat } from '../shipping/address-data-chunk.js';
import { useT } from '../../i18n/use-t.js';

/** The finished billing step in one line. */
export function BillingSummary() {
  const { form } = useCheckout();
  const { language, locale } = useT();
  const format = useWrittenAddressFormat(form.text.bill_country ?? '');
  return <p>{addressLine(form.text, 'bill', format, language, (code) => countryName(code, locale))}</p>;
}
