import type { ExpressPayer } from './gateway.js';
import type { PaypalOrder } from './paypal-responses.js';

/**
 * The payer and the shipping address they chose at PayPal, as our express payer fields; null when PayPal told us
 * nothing about them. PayPal gives the ship-to name as one `full_name`: when it is the payer's own name the payer's
 * given name and surname are used, otherwise it is split at the first space.
 */
export function toExpressPayer(order: PaypalOrder): ExpressPayer | null {
  const wallet = order.payment_source?.paypal;
  const email = wallet?.email_address ?? order.payer?.email_address ?? '';
  const fname = wallet?.name?.given_name ?? order.payer?.name?.given_name ?? '';
  const lname = wallet?.name?.surname ?? order.payer?.name?.surname ?? '';
  const shipping = order.purchase_units?.[0]?.shipping;
  if (email === '' && fname === '' && lname === '' && shipping === undefined) return null;

  const fullName = (shipping?.name?.full_name ?? '').trim().replace(/\s+/g, ' ');
  let shipFname = fname;
  let shipLname = lname;
  if (fullName !== '' && fullName !== `${fname} ${lname}`.trim()) {
    const space = fullName.indexOf(' ');
    shipFname = space === -1 ? fullName : fullName.slice(0, space);
    shipLname = space === -1 ? '' : fullName.slice(space + 1);
  }
  const address = shipping?.address;
  return {
    email,
    fname,
    lname,
    ship_fname: shipFname,
    ship_lname: shipLname,
    ship_address1: address?.address_line_1 ?? '',
    ship_address2: address?.address_line_2 ?? '',
    ship_city: address?.admin_area_2 ?? '',
    ship_state: address?.admin_area_1 ?? '',
    ship_zipcode: address?.postal_code ?? '',
    ship_country: address?.country_code ?? '',
  };
}
