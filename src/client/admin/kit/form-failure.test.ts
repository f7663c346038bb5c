import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../admin-api.js';
import { failureOf, summaryOf } from './form-failure.js';

describe('failureOf', () => {
  it("keeps the server's field errors, and its message only when it names no field", () => {
    const refused = new ApiFailure(422, 'Invalid fields.', { price: 'Must be zero or more.' });
    expect(failureOf(refused)).toEqual({ message: null, fields: { price: 'Must be zero or more.' } });
    expect(failureOf(new ApiFailure(409, 'The currency is locked.'))).toEqual({
      message: 'The currency is locked.',
      fields: {},
    });
    expect(failureOf(null)).toEqual({ message: null, fields: {} });
  });
});

describe('summaryOf', () => {
  it("lists the fields in the form's order, and the ones it does not show last", () => {
    expect(summaryOf({ b: 'B!', z: 'Z!', a: 'A!' }, ['a', 'b'])).toEqual([
      ['a', 'A!'],
      ['b', 'B!'],
      ['z', 'Z!'],
    ]);
  });
});
