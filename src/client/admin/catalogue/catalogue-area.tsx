// The dashboard's Catalogue (docs/dashboard.md).
import type { AreaProps } from '../area.js';
import { ScreenHeading } from '../screen-heading.js';

export default function CatalogueArea(_props: AreaProps) {
  return <ScreenHeading>Catalogue</ScreenHeading>;
}
