// The dashboard's Subscriptions (docs/dashboard.md).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';

export default function SubscriptionsArea(_props: AreaProps) {
  return <ScreenHeading>Subscriptions</ScreenHeading>;
}
