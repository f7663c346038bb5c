// Reads the message catalogues (src/i18n/catalogues/<namespace>/<language>.json, docs/languages.md) and compiles them
// with Lingui's compiler: the server at start-up, and the page builds through vite.catalogues.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { DEFAULT_LANGUAGE, type Language } from '../../i18n/languages.js';
import { projectRootAbove } from '../platform/project-root.js';

export const CATALOGUES_DIR = path.join(
  projectRootAbove(path.dirname(fileURLToPath(import.meta.url))),
  'src/i18n/catalogues',
);

export type SourceMessages = Record<string, string>;
export type CompiledMessages = Record<string, CompiledMessage>;

/** Every namespace (a folder of catalogues, one file a language). */
export function catalogueNamespaces(dir = CATALOGUES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export function catalogueFile(namespace: string, language: string, dir = CATALOGUES_DIR): string {
  return path.join(dir, namespace, `${language}.json`);
}

/** One namespace's messages in one language as written; {} when that language has no file. */
export function readCatalogue(namespace: string, language: string, dir = CATALOGUES_DIR): SourceMessages {
  let text: string;
  try {
    text = readFileSync(catalogueFile(namespace, language, dir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return JSON.parse(text) as SourceMessages;
}

/**
 * The namespaces' messages in `language`, each key the English one stands in for when a translation lacks it (the
 * catalogue test refuses such a gap; a page still never shows a key), compiled.
 */
export function compileCatalogues(
  namespaces: readonly string[],
  language: Language,
  dir = CATALOGUES_DIR,
): CompiledMessages {
  const compiled: CompiledMessages = {};
  for (const namespace of namespaces) {
    const messages = {
      ...readCatalogue(namespace, DEFAULT_LANGUAGE, dir),
      ...readCatalogue(namespace, language, dir),
    };
    for (const [key, message] of Object.entries(messages)) {
      try {
        compiled[key] = compileMessageOrThrow(message);
      } catch (error) {
        throw new Error(`${namespace}/${language}.json: ${key} is not a valid message: ${String(error)}`);
      }
    }
  }
  return compiled;
}
