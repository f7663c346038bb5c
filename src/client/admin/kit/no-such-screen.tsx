import { ScreenHeading } from '../screen-heading.js';
import { AdminLink } from './admin-link.js';

/** An address under an area that names no screen of it (a mistyped id, an old link): where to go instead. */
export function NoSuchScreen(props: { heading: string; says: string; back: { to: string; label: string } }) {
  return (
    <>
      <ScreenHeading>{props.heading}</ScreenHeading>
      <p>
        {props.says} <AdminLink to={props.back.to}>{props.back.label}</AdminLink>.
      </p>
    </>
  );
}
