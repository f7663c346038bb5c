import { describe, expect, it } from 'vitest';
import { chooseClientIp, isPublicIp } from './client-ip.js';

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
