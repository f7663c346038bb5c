import { describe, expect, it } from 'vitest';
import { renderStaffInvite } from './staff-invite-template.js';

describe('renderStaffInvite', () => {
  it('says what the role gives and carries the link, escaped in the HTML', () => {
    const email = renderStaffInvite({
      store: { name: 'Beans <&> Co', logoUrl: null },
      role: 'staff',
      url: 'https://shop.example/admin/link#abc_123',
      expiresAt: new Date('2026-12-03T08:00:00Z'),
    });
    expect(email.subject).toBe('You are invited to run Beans <&> Co');
    expect(email.text).toContain('as staff: orders, subscriptions, refunds and the catalogue');
    expect(email.text).toContain('Set your password: https://shop.example/admin/link#abc_123');
    expect(email.text).toContain('Thu, 03 Dec 2026 08:00:00 GMT');
    expect(email.html).toContain('Beans &lt;&amp;&gt; Co');
    expect(email.html).not.toContain('Beans <&> Co');
    expect(email.html).toContain('href="https://shop.example/admin/link#abc_123"');
  });
});
