// The dashboard's Settings (docs/dashboard.md).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';

export default function SettingsArea(_props: AreaProps) {
  return <ScreenHeading>Settings</ScreenHeading>;
}
