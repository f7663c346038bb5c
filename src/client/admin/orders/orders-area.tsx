// The dashboard's Orders (docs/dashboard.md).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';

export default function OrdersArea(_props: AreaProps) {
  return <ScreenHeading>Orders</ScreenHeading>;
}
