// The dashboard's Developers (docs/dashboard.md).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';

export default function DevelopersArea(_props: AreaProps) {
  return <ScreenHeading>Developers</ScreenHeading>;
}
