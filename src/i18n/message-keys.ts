// Every message's key, read off the English catalogues: a key that is not in English does not compile (docs/languages.md).
import type common from './catalogues/common/en.json';
import type language from './catalogues/language/en.json';

export type MessageKey = keyof typeof common | keyof typeof language;

/** Values a message is filled with: {name} placeholders, plural counts. */
export type MessageValues = Record<string, string | number>;
