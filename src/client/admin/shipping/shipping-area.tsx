// The dashboard's Shipping and tax (docs/dashboard.md).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';

export default function ShippingArea(_props: AreaProps) {
  return <ScreenHeading>Shipping and tax</ScreenHeading>;
}
