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

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Strict JSON bodies: valid UTF-8 only (no silent replacement characters), bounded nesting, and Fastify's own parser
 * for the rest (it refuses __proto__ and constructor.prototype keys and answers an empty body).
 */
export function installJsonBodyParser(
  app: FastifyInstance,
  // Report bodies are JSON under their own types (csp-report-routes.ts); everything else is application/json only.
  contentTypes: readonly string[] = ['application/json'],
): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  for (const type of contentTypes) if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
  app.addContentTypeParser([...contentTypes], { parseAs: 'buffer' }, (request, body, done) => {
    // JSON is UTF-8 (RFC 8259); a body declared in another charset would be read wrongly.
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      done(new AppError(415, 'unsupported_media_type', 'Send the body as UTF-8 encoded JSON.'), undefined);
      return;
    }
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
    void parseJson(request, text, (error, value) => {
      if (error && isPlainJson(text)) {
        // Valid JSON the safe parser refused: it names __proto__ or constructor.prototype.
        done(
          new AppError(
            400,
            'invalid_json',
            'The request body contains a forbidden key (__proto__ or constructor.prototype).',
          ),
          undefined,
        );
        return;
      }
      done(error, value);
    });
  });
}
