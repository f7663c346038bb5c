import * as z from 'zod/mini';

// The page runs under a CSP without 'unsafe-eval'; zod's JIT compiles with new Function, so turn it off everywhere.
z.config({ jitless: true });

export { z };

/**
 * What `build` makes (a schema, or the fields of one), in a call bundlers may leave out when nothing uses its result:
 * the page bundles the answers' schemas from modules that also hold the requests', and never checks a request. Zod
 * copies a schema for each check, so building the requests' schemas was half of the page's schema chunk's evaluation
 * (tests/e2e/page-bundle.test.ts).
 */
// @__NO_SIDE_EFFECTS__
export function unlessUnused<T>(build: () => T): T {
  return build();
}
