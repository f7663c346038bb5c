/**
 * The theme's breakpoints (px), defined here once: xs 0, sm 768, md 992, lg 1200, xl 1400. The stylesheets name them as
 * custom media, `@media (--sm)`, `@media (--lg)` (each from that width up), and the build resolves those names from
 * this list (resolveCustomMedia, run by vite.config.ts on every stylesheet); the browser tests size their windows from
 * it. What each one changes is in checkout/checkout.css.
 */
export const BREAKPOINTS = { xs: 0, sm: 768, md: 992, lg: 1200, xl: 1400 } as const;

export type Breakpoint = keyof typeof BREAKPOINTS;

const CUSTOM_MEDIA = /\(--([a-z]+)\)/g;

/**
 * A stylesheet with its `(--name)` media conditions written out as `(min-width: …px)`. A name that is not a
 * breakpoint is an error: left as it is, the browser would drop the whole rule without a word.
 */
export function resolveCustomMedia(css: string): string {
  return css.replace(/@media[^{]*\{/g, (prelude) =>
    prelude.replace(CUSTOM_MEDIA, (_match, name: string) => {
      if (!(name in BREAKPOINTS)) {
        throw new Error(
          `Unknown breakpoint --${name} in @media: use one of ${Object.keys(BREAKPOINTS).join(', ')}.`,
        );
      }
      return `(min-width: ${BREAKPOINTS[name as Breakpoint]}px)`;
    }),
  );
}
