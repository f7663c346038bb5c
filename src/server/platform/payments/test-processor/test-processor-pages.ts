// The test processor's two pages, built by Vite into dist/client/card-frame (src/card-frame): the card fields and
// the bank's challenge. The server writes their config in as a JSON block, as the checkout's page does (no inline
// script may run under their policy), and their words in the language on their URL (docs/languages.md).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_LANGUAGE, languageOf, type Language } from '../../../../i18n/languages.js';
import type { MessageKey } from '../../../../i18n/message-keys.js';
import { writePageLanguage } from '../../../i18n/page-words.js';

/** Where the built pages carry their config (src/card-frame/*.html). */
export const PROCESSOR_CONFIG_PLACEHOLDER = '<!--processor-config-->';
export const PROCESSOR_CONFIG_ID = 'processor-config';

/** What the pages' scripts read: who may frame them and hear from them, and on the challenge page its state. */
export interface ProcessorPageConfig {
  checkoutOrigin: string;
  challenge?: { id: string; status: 'pending' | 'succeeded' | 'failed' };
}

/** Marked like the built pages' words (data-t), so they are said in the page's language as those are. */
const unbuilt = (title: MessageKey) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title data-t="${title}"></title>${PROCESSOR_CONFIG_PLACEHOLDER}</head>
<body><main><h1 data-t="${title}"></h1><p data-t="provider.not_built"></p></main></body></html>`;

/** `?lang=ja` on a page's URL → ja; a missing or unknown one → English (as the pages' own script reads it). */
export function processorPageLanguage(lang: unknown): Language {
  return (typeof lang === 'string' ? languageOf(lang) : null) ?? DEFAULT_LANGUAGE;
}

/**
 * A page as served: <html lang dir> and each data-t element's words in its language, so it reads right before its
 * script runs; then the config block, JSON with "<" escaped, so no value can close the script element.
 */
export function renderProcessorPage(
  template: string,
  config: ProcessorPageConfig,
  language: Language = DEFAULT_LANGUAGE,
): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return writePageLanguage(template, language).replace(
    PROCESSOR_CONFIG_PLACEHOLDER,
    () => `<script type="application/json" id="${PROCESSOR_CONFIG_ID}">${json}</script>`,
  );
}

export interface ProcessorTemplates {
  frame: string;
  challenge: string;
  /** the CSP sources of the pages' own <style> elements (their stylesheet is written into them at build) */
  styleHashes: string[];
}

/** The 'sha256-…' source of each <style> element of a page, as a Content-Security-Policy allows it. */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
}

/** The built pages, or placeholders that say to build them (API tests run without a build). */
export async function loadProcessorTemplates(frameDir: string | null): Promise<ProcessorTemplates> {
  const read = async (file: string, title: MessageKey) => {
    const full = frameDir ? path.join(frameDir, file) : null;
    const template = full && existsSync(full) ? await readFile(full, 'utf8') : unbuilt(title);
    if (!template.includes(PROCESSOR_CONFIG_PLACEHOLDER)) {
      throw new Error(
        `The test processor's page ${full ?? file} lacks the ${PROCESSOR_CONFIG_PLACEHOLDER} placeholder.`,
      );
    }
    return template;
  };
  const frame = await read('index.html', 'card.title');
  const challenge = await read('challenge.html', 'card.challenge_title');
  return {
    frame,
    challenge,
    styleHashes: [...new Set([...inlineStyleHashes(frame), ...inlineStyleHashes(challenge)])],
  };
}
