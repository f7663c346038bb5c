import { useCheckout } from '../checkout-context.js';
import { countryName } from '../format.js';
import { addressLine } from './address-line.js';
import { useWrittenAddressFormat } from './address-data-chunk.js';
import { useT } from '../../i18n/use-t.js';

/** The finished shipping step in one line: the address and the shipping method. */
export function ShippingSummary() {
  const { cart, form } = useCheckout();
  const { language, locale } = useT();
  const format = useWrittenAddressFormat(form.text.ship_country ?? '');
  const method = cart.order.shipping_profiles.find(
    (option) => option.shipping_profile_id === form.text.shipping_profile_id,
  );
  return (
    <p>
      {addressLine(form.text, 'ship', format, language, (code) => countryName(code, locale))}
      {method ? ` · ${method.name}` : ''}
    </p>
  );
}
