import { useEffect, useRef } from 'react';
import { useAnnounce } from '../ui/live-region.js';

/** A screen's heading: it takes the focus when the screen opens, and the screen's name is announced. */
export function ScreenHeading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const announce = useAnnounce();
  useEffect(() => {
    ref.current?.focus();
    document.title = `${children} · Dashboard`;
    announce(children);
  }, [children, announce]);
  return (
    <h1 className="admin-title" ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}
