import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** Half of a UTF-16 surrogate pair standing alone: a code unit that is no character. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type UnstorableCharacter = 'nul' | 'lone_surrogate';

function inText(text: string): UnstorableCharacter | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'lone_surrogate';
  return null;
}

/**
 * What a parsed input (JSON body, query, path parameters) holds, in any string or key, that PostgreSQL cannot store:
 * a NUL character (JSON and URLs can carry one, \u0000 or %00; text cannot hold it), or half of a surrogate pair
 * (JSON can escape one, "\ud800"; jsonb refuses it and text would keep U+FFFD in its place). Refused at the door,
 * either is a 400 and not a database error. Nesting is already bounded by the JSON parser.
 */
export function findUnstorableCharacter(value: unknown): UnstorableCharacter | null {
  if (typeof value === 'string') return inText(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findUnstorableCharacter(item);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = inText(key) ?? findUnstorableCharacter(item);
      if (found) return found;
    }
  }
  return null;
}

const MESSAGES: Record<UnstorableCharacter, string> = {
  nul: 'The request contains a NUL character (\\u0000 or %00), which no field accepts.',
  lone_surrogate:
    'The request contains half of a UTF-16 surrogate pair (such as \\ud800), which is not a character. Send the text as well-formed Unicode.',
};

export function refuseUnstorableCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const found =
      findUnstorableCharacter(request.params) ??
      findUnstorableCharacter(request.query) ??
      findUnstorableCharacter(request.body);
    if (found) throw new AppError(400, 'invalid_characters', MESSAGES[found]);
  });
}
