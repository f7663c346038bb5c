import { describe, expect, it } from 'vitest';
import { abuseLimitSubject, canonicalIp, chooseClientIp, isPublicIp } from './client-ip.js';

describe('chooseClientIp', () => {
  it('uses the connection address when no proxy is trusted, even if X-Forwarded-For is sent', () => {
    expect(chooseClientIp({ remoteAddress: '8.8.8.8', forwardedFor: '1.1.1.1', trustedProxies: [] })).toBe(
      '8.8.8.8',
    );
  });

  it('takes the first X-Forwarded-For entry behind a trusted proxy', () => {
    expect(
      chooseClientIp({
        remoteAddress: '10.0.0.5',
        forwardedFor: '203.0.114.7, 10.0.0.1',
        trustedProxies: ['10.0.0.0/8'],
      }),
    ).toBe('203.0.114.7');
  });

  it('ignores private addresses', () => {
    expect(
      chooseClientIp({ remoteAddress: '127.0.0.1', forwardedFor: undefined, trustedProxies: [] }),
    ).toBeNull();
    expect(
      chooseClientIp({
        remoteAddress: '10.0.0.5',
        forwardedFor: '192.168.1.20',
        trustedProxies: ['10.0.0.0/8'],
      }),
    ).toBeNull();
  });

  it('reads IPv4-mapped IPv6 connection addresses', () => {
    expect(
      chooseClientIp({ remoteAddress: '::ffff:8.8.4.4', forwardedFor: undefined, trustedProxies: [] }),
    ).toBe('8.8.4.4');
    expect(
      chooseClientIp({
        remoteAddress: '::ffff:127.0.0.1',
        forwardedFor: '8.8.8.8',
        trustedProxies: ['127.0.0.1'],
      }),
    ).toBe('8.8.8.8');
  });

  it('writes every spelling of one address the same way', () => {
    const seen = (remoteAddress: string) =>
      chooseClientIp({ remoteAddress, forwardedFor: undefined, trustedProxies: [] });
    for (const spelling of [
      '2606:4700:0:0:0:0:0:abcd',
      '2606:4700::ABCD',
      '2606:4700:0000:0000:0000:0000:0000:abcd',
      '[2606:4700::abcd]',
      '2606:4700::abcd%eth0',
      ' 2606:4700::abcd ',
    ]) {
      expect(seen(spelling), spelling).toBe('2606:4700::abcd');
    }
    expect(seen('::abcd')).toBe(seen('0:0:0:0:0:0:0:abcd'));
    expect(seen('::FFFF:8.8.4.4')).toBe('8.8.4.4');
    expect(seen('::ffff:0808:0404')).toBe('8.8.4.4');
  });

  it('refuses garbage in the header', () => {
    expect(
      chooseClientIp({
        remoteAddress: '10.0.0.5',
        forwardedFor: '<script>, 8.8.8.8',
        trustedProxies: ['10.0.0.0/8'],
      }),
    ).toBeNull();
  });
});

describe('isPublicIp', () => {
  it('knows public from private, for IPv4 and IPv6', () => {
    expect(isPublicIp('8.8.8.8')).toBe(true);
    expect(isPublicIp('172.16.0.1')).toBe(false);
    expect(isPublicIp('172.32.0.1')).toBe(true);
    expect(isPublicIp('100.64.1.1')).toBe(false);
    expect(isPublicIp('2606:4700:4700::1111')).toBe(true);
    expect(isPublicIp('::1')).toBe(false);
    expect(isPublicIp('fd12:3456::1')).toBe(false);
    expect(isPublicIp('fe80::1%eth0')).toBe(false);
    expect(isPublicIp('not-an-ip')).toBe(false);
  });
});

describe('canonicalIp', () => {
  it('writes IPv6 as RFC 5952 does', () => {
    expect(canonicalIp('2001:0DB8:0000:0000:0001:0000:0000:0001')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalIp('0:0:0:0:0:0:0:0')).toBe('::');
    expect(canonicalIp('1:0:0:0:0:0:0:0')).toBe('1::');
    expect(canonicalIp('fe80::1%25eth0')).toBe('fe80::1');
    expect(canonicalIp('001.2.3.4')).toBeNull();
    expect(canonicalIp('1:2:3')).toBeNull();
  });
});

describe('abuseLimitSubject', () => {
  it('counts IPv6 by its network, every address of one /64 alike', () => {
    const subjects = new Set(
      Array.from({ length: 40 }, (_, i) => abuseLimitSubject(`2a02:6b8:1:2:${i.toString(16)}:0:0:1`, 64)),
    );
    expect([...subjects]).toEqual(['2a02:6b8:1:2::/64']);
    expect(abuseLimitSubject('2A02:06B8:0001:0003::1', 64)).toBe('2a02:6b8:1:3::/64');
    expect(abuseLimitSubject('2a02:6b8:1:2::1', 48)).toBe('2a02:6b8:1::/48');
    expect(abuseLimitSubject('2a02:6b8:1:2::1', 128)).toBe('2a02:6b8:1:2::1');
  });

  it('counts IPv4 by its address, mapped or not', () => {
    expect(abuseLimitSubject('81.2.69.50', 64)).toBe('81.2.69.50');
    expect(abuseLimitSubject('::ffff:81.2.69.50', 64)).toBe('81.2.69.50');
    expect(abuseLimitSubject('not an address', 64)).toBeNull();
  });

  it('counts shoppers behind a NAT64 gateway by their IPv4 addresses', () => {
    expect(abuseLimitSubject('64:ff9b::81.2.69.50', 64)).toBe('81.2.69.50');
    expect(abuseLimitSubject('64:ff9b::5102:4533', 64)).toBe('81.2.69.51');
    expect(isPublicIp('64:ff9b::10.0.0.1')).toBe(false);
    expect(isPublicIp('64:ff9b::8.8.8.8')).toBe(true);
  });

  it('does not take the deprecated IPv4-compatible addresses (::a.b.c.d) as public', () => {
    expect(isPublicIp('::8.8.8.8')).toBe(false);
    expect(isPublicIp('::')).toBe(false);
    expect(isPublicIp('::1')).toBe(false);
  });
});
