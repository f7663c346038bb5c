/**
 * The visitor's IP address as the server may record it: its own view of the connection, or the first entry of
 * X-Forwarded-For when (and only when) the connection comes from a trusted proxy. Private, loopback and other
 * non-public addresses are never used.
 */
type Parsed = { version: 4; value: bigint } | { version: 6; value: bigint };

function parseIPv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255 || (part.length > 1 && part.startsWith('0'))) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIPv6(text: string): bigint | null {
  let input = text.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  if (!input.includes(':')) return null;
  let tail: bigint | null = null;
  const lastColon = input.lastIndexOf(':');
  const maybeV4 = input.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    tail = parseIPv4(maybeV4);
    if (tail === null) return null;
    input = `${input.slice(0, lastColon + 1)}0:0`;
  }
  const halves = input.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  if (tail !== null) value = (value & ~0xffffffffn) | tail;
  return value;
}

const NAT64_PREFIX = 0x64ff9b_0000_0000_0000_0000n;

function parseIp(text: string): Parsed | null {
  const trimmed = text.trim();
  const v4 = parseIPv4(trimmed);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIPv6(trimmed);
  if (v6 === null) return null;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) and the NAT64 well-known prefix (64:ff9b::a.b.c.d) are the IPv4 address, so
  // the shoppers behind one NAT64 gateway are told apart as their IPv4 addresses are, not lumped into one /64.
  if (v6 >> 32n === 0xffffn || v6 >> 32n === NAT64_PREFIX) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

export function isIpAddress(text: string): boolean {
  return parseIp(text) !== null;
}

function inRange(ip: Parsed, cidr: string): boolean {
  const [base = '', bitsText] = cidr.split('/');
  const network = parseIp(base);
  if (!network || network.version !== ip.version) return false;
  const width = ip.version === 4 ? 32 : 128;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return false;
  const shift = BigInt(width - bits);
  return ip.value >> shift === network.value >> shift;
}

const NON_PUBLIC = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
  // ::/96 holds the unspecified and loopback addresses and the deprecated IPv4-compatible ones (::a.b.c.d).
  '::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
];

/** Private, loopback, link-local, shared, documentation, multicast and reserved addresses are not "public". */
export function isPublicIp(text: string): boolean {
  const ip = parseIp(text);
  if (!ip) return false;
  return !NON_PUBLIC.some((range) => inRange(ip, range));
}

export function isInRanges(text: string, ranges: readonly string[]): boolean {
  const ip = parseIp(text);
  return ip !== null && ranges.some((range) => inRange(ip, range));
}

function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
}

/** RFC 5952 text: lower case, no leading zeros, the longest run of two or more zero groups (the first of equals) as "::". */
function formatIPv6(value: bigint): string {
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => Number((value >> shift) & 0xffffn));
  let runStart = -1;
  let runLength = 0;
  for (let i = 0; i < 8; i++) {
    let length = 0;
    while (i + length < 8 && groups[i + length] === 0) length++;
    if (length > runLength && length >= 2) {
      runStart = i;
      runLength = length;
    }
    i += length;
  }
  const text = groups.map((group) => group.toString(16));
  if (runStart < 0) return text.join(':');
  return `${text.slice(0, runStart).join(':')}::${text.slice(runStart + runLength).join(':')}`;
}

function format(ip: Parsed): string {
  return ip.version === 4 ? formatIPv4(ip.value) : formatIPv6(ip.value);
}

/**
 * The one text of an address, whatever its spelling: IPv4-mapped IPv6 (::ffff:1.2.3.4) is the IPv4 address, and
 * IPv6 is written as RFC 5952 says (::abcd and 0:0:0:0:0:0:0:ABCD are one), without brackets or zone id. Null when
 * the text is no address.
 */
export function canonicalIp(text: string): string | null {
  const ip = parseIp(text);
  return ip ? format(ip) : null;
}

/**
 * What the per-IP abuse limits count an address under: an IPv4 address alone, an IPv6 address by its network of
 * `ipv6PrefixLength` bits (one host is commonly given a whole /64, so counting its addresses one by one counts nothing).
 */
export function abuseLimitSubject(ip: string, ipv6PrefixLength: number): string | null {
  const parsed = parseIp(ip);
  if (!parsed) return null;
  if (parsed.version === 4 || ipv6PrefixLength >= 128) return format(parsed);
  const hostBits = BigInt(128 - ipv6PrefixLength);
  return `${formatIPv6((parsed.value >> hostBits) << hostBits)}/${ipv6PrefixLength}`;
}

export function chooseClientIp(input: {
  remoteAddress: string | undefined;
  forwardedFor: string | string[] | undefined;
  trustedProxies: readonly string[];
}): string | null {
  const remote = input.remoteAddress ?? '';
  let candidate = remote;
  if (input.forwardedFor !== undefined && isInRanges(remote, input.trustedProxies)) {
    const header = Array.isArray(input.forwardedFor) ? input.forwardedFor.join(',') : input.forwardedFor;
    // For a comma-separated list, the first entry is taken (docs/checkout-rules.md#start-and-authorization).
    candidate = header.split(',')[0]?.trim() ?? '';
  }
  if (!isPublicIp(candidate)) return null;
  return canonicalIp(candidate);
}
