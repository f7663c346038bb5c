import { describe, expect, it } from 'vitest';
import { describeIssue, issuesToFields, schemaMessage } from '../../contract/errors.js';
import { z } from '../../contract/zod.js';
import { sayFieldMessages } from '../../domain/field-errors.js';
import { translatorFor } from './translator.js';

// A schema's issues become catalogue messages, said in the reader's language (docs/languages.md, "Refusals and field
// errors").

function issuesOf(schema: z.ZodMiniType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to fail');
  return result.error.issues;
}

const Body = z.strictObject({
  name: z.string().check(z.maxLength(200)),
  code: z.string().check(z.minLength(3)),
  count: z.int().check(z.gte(2), z.lte(10_000_000)),
  tags: z.array(z.string()).check(z.minLength(1)),
  speed: z.enum(['standard', 'express', 'overnight']),
  email: z.email(),
  note: z.string().check(z.maxLength(5, schemaMessage('errors.field_gift_notes_too_long'))),
  step: z.int().check(z.gte(1, schemaMessage('errors.field_quantity_at_least', { minimum: 1 }))),
  plain: z.string().check(z.minLength(2, 'Written by hand.')),
});

const input = {
  name: 'x'.repeat(201),
  code: 'ab',
  count: 20_000_000,
  tags: [],
  speed: 'slow',
  email: 'grace@',
  note: 'too long',
  step: 0,
  plain: 'x',
  extra: true,
};

describe('validation issues as messages', () => {
  it('maps each issue to a catalogue key with the issue’s values', () => {
    const fields = issuesToFields(issuesOf(Body, input), input);
    expect(fields).toEqual({
      name: { key: 'errors.field_max_length', values: { maximum: 200 } },
      code: { key: 'errors.field_min_length', values: { minimum: 3 } },
      count: { key: 'errors.field_max_value', values: { maximum: 10_000_000 } },
      tags: { key: 'errors.field_min_items', values: { minimum: 1 } },
      speed: { key: 'errors.field_one_of', values: { values: 'standard, express, or overnight' } },
      email: { key: 'errors.field_email' },
      note: { key: 'errors.field_gift_notes_too_long', values: { maximum: 5 } },
      step: { key: 'errors.field_quantity_at_least', values: { minimum: 1 } },
      plain: 'Written by hand.',
      extra: { key: 'errors.field_not_expected' },
    });
  });

  it('tells a missing field from a wrong type', () => {
    const Schema = z.object({ price: z.number(), quantity: z.int(), gift: z.boolean() });
    const given = { quantity: 1.5, gift: 'yes' };
    expect(issuesToFields(issuesOf(Schema, given), given)).toEqual({
      price: { key: 'errors.field_required' },
      quantity: { key: 'errors.field_type_int' },
      gift: { key: 'errors.field_type_boolean' },
    });
  });

  it('says the same messages in English as before, and in French with French numbers and lists', () => {
    const french = (items: readonly string[], type: 'conjunction' | 'disjunction') =>
      new Intl.ListFormat('fr', { type }).format(items);
    const inEnglish = sayFieldMessages(issuesToFields(issuesOf(Body, input), input), translatorFor('en'));
    expect(inEnglish).toMatchObject({
      name: 'Use at most 200 characters.',
      code: 'Use at least 3 characters.',
      count: 'Must be at most 10,000,000.',
      tags: 'Add at least 1 item.',
      speed: 'Must be one of: standard, express, or overnight.',
      email: 'Enter a valid email address.',
      note: 'Keep the notes to 5 characters.',
      step: 'Quantity must be at least 1.',
      extra: 'This field is not expected here.',
    });
    const inFrench = sayFieldMessages(
      issuesToFields(issuesOf(Body, input), input, french),
      translatorFor('fr'),
    );
    expect(inFrench).toMatchObject({
      name: 'Utilisez au plus 200 caractères.',
      count: 'Doit être au plus égal à 10\u202f000\u202f000.',
      speed: 'Doit être l’une de ces valeurs : standard, express ou overnight.',
      email: 'Saisissez une adresse e-mail valide.',
      plain: 'Written by hand.',
      extra: 'Ce champ n’est pas attendu ici.',
    });
  });

  it('names every unexpected key of one issue in the reader’s language', () => {
    const issue = issuesOf(z.strictObject({}), { a: 1, b: 2 })[0]!;
    const german = (items: readonly string[], type: 'conjunction' | 'disjunction') =>
      new Intl.ListFormat('de', { type }).format(items);
    const message = describeIssue(issue, {}, german);
    expect(message).toEqual({ key: 'errors.field_unexpected_keys', values: { count: 2, keys: 'a und b' } });
    if (typeof message === 'string') throw new Error('expected a message');
    expect(translatorFor('de')(message.key, message.values)).toBe('Unerwartete Felder: a und b.');
  });
});
