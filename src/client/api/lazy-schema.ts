import type { z } from '../../contract/zod.js';
import type * as Schemas from './response-schemas.js';

export type ResponseSchemas = typeof Schemas;

/** A schema of the contract, loaded on first use. */
export type LazySchema<T> = () => Promise<z.ZodMiniType<T>>;

/** One download for every schema; later calls share it. */
export const loadResponseSchemas = (): Promise<ResponseSchemas> => import('./response-schemas.js');

export function lazySchema<T>(pick: (schemas: ResponseSchemas) => z.ZodMiniType<T>): LazySchema<T> {
  return async () => pick(await loadResponseSchemas());
}
