import { describe, expect, it } from 'vitest';
import { compareWithApproved } from './express-approval.js';

describe('compareWithApproved', () => {
  it('is the same when the final total is what the payer approved', () => {
    expect(compareWithApproved(18, 18, 'USD')).toEqual({ kind: 'same' });
    expect(compareWithApproved(0.1 + 0.2, 0.3, 'USD')).toEqual({ kind: 'same' });
  });

  it('says how much more or less the final total is, to the cent', () => {
    expect(compareWithApproved(18, 24.49, 'USD')).toEqual({ kind: 'more', difference: 6.49 });
    expect(compareWithApproved(24.49, 18, 'USD')).toEqual({ kind: 'less', difference: 6.49 });
    expect(compareWithApproved(1500, 1800, 'JPY')).toEqual({ kind: 'more', difference: 300 });
  });
});
