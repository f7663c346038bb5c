import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * Whether a parsed input (JSON body, query, path parameters) holds a NUL character in any string or key. JSON and
 * URLs can carry one (\u0000, %00), but PostgreSQL text cannot store it: refused at the door, it is a 400 and not
 * a database error. Nesting is already bounded by the JSON parser.
 */
export function containsNulCharacter(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNulCharacter);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNulCharacter(item));
  }
  return false;
}

export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (
      containsNulCharacter(request.params) ||
      containsNulCharacter(request.query) ||
      containsNulCharacter(request.body)
    ) {
      throw new AppError(
        400,
        'invalid_characters',
        'The request contains a NUL character (\\u0000 or %00), which no field accepts.',
      );
    }
  });
}
