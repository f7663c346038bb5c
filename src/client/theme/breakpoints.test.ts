import { describe, expect, it } from 'vitest';
import { BREAKPOINTS, resolveCustomMedia } from './breakpoints.js';

describe('resolveCustomMedia', () => {
  it('writes each breakpoint name out as the width it starts at', () => {
    const css = '@media (--sm) { .a { x: 1 } }\n@media print and (--xl) { .b { y: 2 } }';
    expect(resolveCustomMedia(css)).toBe(
      '@media (min-width: 768px) { .a { x: 1 } }\n@media print and (min-width: 1400px) { .b { y: 2 } }',
    );
  });

  it('leaves other media queries and custom properties alone', () => {
    const css =
      '@media (prefers-reduced-motion: reduce) { .a { color: var(--color-primary) } }\n.b { width: calc(var(--space-4) * 2) }';
    expect(resolveCustomMedia(css)).toBe(css);
  });

  it('refuses a name that is not a breakpoint, instead of a rule the browser would drop', () => {
    expect(() => resolveCustomMedia('@media (--tablet) { .a { x: 1 } }')).toThrow(
      /Unknown breakpoint --tablet/,
    );
  });

  it('has the theme’s five breakpoints', () => {
    expect(BREAKPOINTS).toEqual({ xs: 0, sm: 768, md: 992, lg: 1200, xl: 1400 });
  });
});
