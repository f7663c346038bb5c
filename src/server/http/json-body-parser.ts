import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** No request of this API nests deeper than a handful of levels; 32 leaves room and stops stack-deep input early. */
export const MAX_JSON_DEPTH = 32;

/** Whether arrays and objects in a JSON text nest deeper than `max`, counted without parsing (strings skipped). */
export function isJsonNestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
      continue;
    }
    if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > max) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Strict JSON bodies: valid UTF-8 only (no silent replacement characters), bounded nesting, and Fastify's own parser
 * for the rest (it refuses __proto__ and constructor.prototype keys and answers an empty body).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new AppError(400, 'invalid_encoding', 'The request body is not valid UTF-8 text.'), undefined);
      return;
    }
    if (isJsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new AppError(400, 'invalid_json', `The request body nests more than ${MAX_JSON_DEPTH} levels deep.`),
        undefined,
      );
      return;
    }
    void parseJson(request, text, done);
  });
}
