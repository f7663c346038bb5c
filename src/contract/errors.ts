import type { FieldMessage } from '../domain/field-errors.js';
import type { Message, MessageKey, MessageValues } from '../i18n/message-keys.js';
import { z } from './zod.js';

/** The one error shape of every 4xx/5xx answer. Messages are written for the shopper (or the merchant's developer). */
export const ApiErrorSchema = z.object({
  status: z.int(),
  code: z.string(),
  message: z.string(),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

type Issue = z.core.$ZodIssue;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * A schema's own message for a field, as a catalogue message (docs/languages.md, "Refusals and field errors"): zod
 * keeps it as the issue's text, and describeIssue reads it back. Values the issue carries (`maximum`, `minimum`) fill
 * it unless given here.
 */
export function schemaMessage(key: MessageKey, values?: MessageValues): string {
  return JSON.stringify(values ? { key, values } : { key });
}

function readSchemaMessage(text: string): Message | null {
  if (!text.startsWith('{"key":')) return null;
  try {
    const parsed = JSON.parse(text) as Message;
    return typeof parsed.key === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** How a list of values is joined: in the reader's language (Intl.ListFormat) where the caller knows it. */
export type JoinList = (items: readonly string[], type: 'conjunction' | 'disjunction') => string;

const joinInEnglish: JoinList = (items, type) => new Intl.ListFormat('en', { type }).format(items);

function bound(value: unknown): string | number {
  return typeof value === 'number' ? value : String(value);
}

const TYPES: Readonly<Record<string, MessageKey>> = {
  string: 'errors.field_type_string',
  number: 'errors.field_type_number',
  int: 'errors.field_type_int',
  boolean: 'errors.field_type_boolean',
  object: 'errors.field_type_object',
  array: 'errors.field_type_array',
};

/** The values an issue fills a message with: its bounds, its allowed values, its unexpected keys. */
function issueValues(issue: Issue, join: JoinList): MessageValues {
  switch (issue.code) {
    case 'too_small':
      return { minimum: bound(issue.minimum) };
    case 'too_big':
      return { maximum: bound(issue.maximum) };
    case 'invalid_value':
      return {
        values: join(
          issue.values.map((value) => String(value)),
          'disjunction',
        ),
      };
    case 'unrecognized_keys':
      return { count: issue.keys.length, keys: join(issue.keys, 'conjunction') };
    case 'not_multiple_of':
      return { divisor: bound(issue.divisor) };
    default:
      return {};
  }
}

/**
 * What one validation issue tells the reader, as a catalogue message each answer says in its language: the schema's
 * own message (schemaMessage) when it gave one, else the issue's. With the input, a missing field ("This field is
 * required.") is told apart from a wrong type ("Must be a number."). A schema's message written as plain text stays
 * as written.
 */
export function describeIssue(issue: Issue, input?: unknown, join: JoinList = joinInEnglish): FieldMessage {
  const values = issueValues(issue, join);
  if (issue.message && issue.message !== 'Invalid input') {
    const own = readSchemaMessage(issue.message);
    if (!own) return issue.message;
    return { key: own.key, values: { ...values, ...own.values } };
  }
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) return { key: 'errors.field_required' };
      return { key: TYPES[issue.expected] ?? 'errors.field_type_other' };
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? { key: 'errors.field_required' }
          : { key: 'errors.field_min_length', values };
      }
      if (issue.origin === 'array') return { key: 'errors.field_min_items', values };
      return { key: 'errors.field_min_value', values };
    case 'too_big':
      if (issue.origin === 'string') return { key: 'errors.field_max_length', values };
      if (issue.origin === 'array') return { key: 'errors.field_max_items', values };
      return { key: 'errors.field_max_value', values };
    case 'invalid_value':
      return { key: 'errors.field_one_of', values };
    case 'unrecognized_keys':
      return { key: 'errors.field_unexpected_keys', values };
    case 'invalid_format':
      return { key: issue.format === 'email' ? 'errors.field_email' : 'errors.field_format' };
    case 'not_multiple_of':
      return { key: 'errors.field_multiple_of', values };
    case 'invalid_union':
      return { key: 'errors.field_not_valid_here' };
    default:
      return { key: 'errors.field_not_valid' };
  }
}

/** Flattens issues into { "field.path": message }; unknown keys are reported under each key's own name. */
export function issuesToFields(
  issues: readonly Issue[],
  input?: unknown,
  join: JoinList = joinInEnglish,
): Record<string, FieldMessage> {
  const fields: Record<string, FieldMessage> = {};
  // Own properties only: a field named "__proto__" or "constructor" (hostile input) is reported like any other.
  const add = (name: string, message: FieldMessage) => {
    if (Object.hasOwn(fields, name)) return;
    Object.defineProperty(fields, name, {
      value: message,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  };
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, { key: 'errors.field_not_expected' });
      continue;
    }
    add(base || '_', describeIssue(issue, input, join));
  }
  return fields;
}
