import * as z from 'zod/mini';

// The page runs under a CSP without 'unsafe-eval'; zod's JIT compiles with new Function, so turn it off everywhere.
z.config({ jitless: true });

export { z };
