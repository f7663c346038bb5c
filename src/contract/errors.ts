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
 * A readable sentence for one validation issue, used when the schema did not give its own message. With the
 * input, a missing field ("This field is required.") is told apart from a wrong type ("Must be a number.").
 */
export function describeIssue(issue: Issue, input?: unknown): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined) return 'This field is required.';
      return `Must be ${article(issue.expected)}.`;
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? 'This field is required.'
          : `Use at least ${issue.minimum} characters.`;
      }
      if (issue.origin === 'array')
        return `Add at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}.`;
      return `Must be at least ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Use at most ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `Use at most ${issue.maximum} items.`;
      return `Must be at most ${issue.maximum}.`;
    case 'invalid_value':
      return `Must be one of: ${issue.values.map((value) => String(value)).join(', ')}.`;
    case 'unrecognized_keys':
      return `Unexpected field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}.`;
    case 'invalid_format':
      return issue.format === 'email' ? 'Enter a valid email address.' : `Must be a valid ${issue.format}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${issue.divisor}.`;
    case 'invalid_union':
      return 'This value is not valid here.';
    default:
      return 'This value is not valid.';
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** Flattens issues into { "field.path": message }; unknown keys are reported under each key's own name. */
export function issuesToFields(issues: readonly Issue[], input?: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  // Own properties only: a field named "__proto__" or "constructor" (hostile input) is reported like any other.
  const add = (name: string, message: string) => {
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
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, 'This field is not expected here.');
      continue;
    }
    add(base || '_', describeIssue(issue, input));
  }
  return fields;
}
