import type { MouseEvent, ReactNode } from 'react';
import { navigate } from '../navigation.js';

/** A link to a dashboard screen: followed without a reload, but a new tab or window still opens one. */
export function AdminLink(props: { to: string; children: ReactNode; className?: string; current?: boolean }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a
      href={props.to}
      onClick={follow}
      className={props.className}
      aria-current={props.current ? 'page' : undefined}
    >
      {props.children}
    </a>
  );
}
