import { useEffect, useRef, type ReactNode } from 'react';
import './overlay.css';

export interface OverlayProps {
  /** what a screen reader says ("Processing your order…") */
  label: string;
  children?: ReactNode;
}

/**
 * A full-screen, blurred overlay that holds focus until it goes away: the page behind it is made inert by its owner,
 * and Tab cannot leave it.
 */
export function Overlay({ label, children }: OverlayProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.focus();
    return () => previous?.focus();
  }, []);
  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-label={label}
      tabIndex={-1}
      ref={ref}
      onKeyDown={(event) => {
        if (event.key === 'Tab') event.preventDefault();
      }}
    >
      <div className="overlay__spinner" aria-hidden="true" />
      <p className="overlay__text" role="status">
        {label}
      </p>
      {children}
    </div>
  );
}
