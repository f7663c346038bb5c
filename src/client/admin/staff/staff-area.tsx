// The dashboard's Staff (docs/dashboard.md).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';

export default function StaffArea(_props: AreaProps) {
  return <ScreenHeading>Staff</ScreenHeading>;
}
