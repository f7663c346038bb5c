import { schemaMessage } from './errors.js';
import { isCountryCode } from '../domain/countries.js';
import { unlessUnused, z } from './zod.js';

// The page's bundle imports this module (through order.ts) and uses none of its schemas: each is built in
// unlessUnused, so the bundle leaves it out (tests/e2e/page-bundle.test.ts).

/** An amount in major units (49.99). Its decimals are checked against the organization's currency by the service. */
export const MoneySchema = unlessUnused(() =>
  z.number().check(z.gte(0, schemaMessage('errors.field_zero_or_more')), z.lte(10_000_000)),
);

export const IdSchema = unlessUnused(() =>
  z.int().check(z.gte(1, schemaMessage('errors.field_positive_id')), z.lte(Number.MAX_SAFE_INTEGER)),
);

export const CountryCodeSchema = unlessUnused(() =>
  z.string().check(z.refine((code) => isCountryCode(code), schemaMessage('errors.field_country_code'))),
);

export const DateTimeSchema = unlessUnused(() =>
  z.iso.datetime({
    offset: true,
    error: schemaMessage('errors.field_date_time'),
  }),
);

export const QuantitySchema = unlessUnused(() =>
  z
    .int()
    .check(
      z.gte(1, schemaMessage('errors.field_quantity_at_least')),
      z.lte(99, schemaMessage('errors.field_quantity_at_most')),
    ),
);

/** ?limit=&starting_after= on every merchant list; answers { data, has_more }. */
export const ListQuerySchema = unlessUnused(() =>
  z.strictObject({
    limit: z.optional(
      z
        .pipe(
          z.string().check(z.regex(/^\d{1,3}$/, 'Use a whole number from 1 to 100.')),
          z.transform(Number),
        )
        .check(z.refine((n) => n >= 1 && n <= 100, 'Use a whole number from 1 to 100.')),
    ),
    starting_after: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d{1,15}$/, 'Use the id of the last object of the previous page.')),
        z.transform(Number),
      ),
    ),
  }),
);
export type ListQuery = z.infer<typeof ListQuerySchema>;

export function listOf<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: z.array(item), has_more: z.boolean() });
}

export const IdParamsSchema = unlessUnused(() =>
  z.strictObject({
    id: z.pipe(z.string().check(z.regex(/^\d{1,15}$/, 'Use a numeric id.')), z.transform(Number)),
  }),
);
