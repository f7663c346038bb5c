import { describe, expect, it } from 'vitest';
import { pageContentSecurityPolicy } from '../../platform/http/security-headers.js';
import { comparePage, thirdPartyScriptSources, type ServedPage } from './page-check.js';
import { cspHashOf, expectedPageHeaders, type PageManifest } from './page-manifest.js';

const ENTRY = '/checkout/assets/index-1.js';
const IMPORT_MAP = '{"integrity":{}}';
const LATER = '/checkout/assets/later-2.js';
const manifest: PageManifest = {
  version: 1,
  scripts: [{ kind: 'script', src: ENTRY, integrity: 'sha384-entry', crossorigin: true }],
  assets: [
    { src: ENTRY, integrity: 'sha384-entry' },
    { src: LATER, integrity: 'sha384-later' },
  ],
  scriptHashes: [cspHashOf(IMPORT_MAP)],
  ...expectedPageHeaders(),
};
const HTML =
  `<head><script type="application/json" id="checkout-config">{"a":1}</script>` +
  `<script type="importmap">${IMPORT_MAP}</script>` +
  `<script type="module" crossorigin src="${ENTRY}" integrity="sha384-entry"></script></head>`;
const FILES: Record<string, string> = { [ENTRY]: 'sha384-entry', [LATER]: 'sha384-later' };

function served(
  change: {
    html?: string;
    headers?: Record<string, string | undefined>;
    files?: Record<string, string>;
  } = {},
): ServedPage {
  const files = { ...FILES, ...change.files };
  return {
    html: change.html ?? HTML,
    headers: {
      ...manifest.headers,
      'content-security-policy': pageContentSecurityPolicy(null, {
        name: 'test',
        origin: 'http://127.0.0.1:3001',
      }),
      ...change.headers,
    },
    integrityOf: (src) => ({ identity: files[src] ?? null }),
  };
}

describe('comparePage', () => {
  it('stays quiet when the page is what the build wrote down', () => {
    expect(comparePage(manifest, served(), null)).toEqual([]);
    const policy = served().headers['content-security-policy'] ?? '';
    expect(comparePage(manifest, served(), policy)).toEqual([]);
    // Stripe.js is a manifest's third-party origin: allowed when Stripe takes the cards.
    const stripe = pageContentSecurityPolicy(null, { name: 'stripe' }, manifest.scriptHashes);
    expect(comparePage(manifest, served({ headers: { 'content-security-policy': stripe } }), null)).toEqual(
      [],
    );
  });

  it('finds a script added to the page, and one removed', () => {
    const added = HTML.replace('</head>', '<script src="https://cdn.evil.example/skim.js"></script></head>');
    expect(comparePage(manifest, served({ html: added }), null)).toEqual([
      {
        kind: 'script_added',
        subject: 'https://cdn.evil.example/skim.js',
        detail: 'a script not in the manifest',
      },
    ]);
    expect(
      comparePage(manifest, served({ html: HTML.replace(/<script type="module".*<\/script>/, '') }), null),
    ).toEqual([{ kind: 'script_removed', subject: ENTRY, detail: "the manifest's script is not served" }]);
  });

  it('finds an inline script the policy does not name, and the import map gone', () => {
    const added = HTML.replace('</head>', '<script>fetch("https://evil.example")</script></head>');
    expect(comparePage(manifest, served({ html: added }), null)).toEqual([
      {
        kind: 'script_added',
        subject: `inline script ${cspHashOf('fetch("https://evil.example")')}`,
        detail: 'not in the manifest',
      },
    ]);
    const withoutMap = HTML.replace(`<script type="importmap">${IMPORT_MAP}</script>`, '');
    expect(comparePage(manifest, served({ html: withoutMap }), null).map((change) => change.kind)).toEqual([
      'script_removed',
    ]);
  });

  it('finds a changed file, loaded first or on demand', () => {
    expect(comparePage(manifest, served({ files: { [LATER]: 'sha384-other' } }), null)).toEqual([
      {
        kind: 'content_changed',
        subject: LATER,
        detail: 'served sha384-other (identity), manifest sha384-later',
      },
    ]);
    const changes = comparePage(manifest, served({ html: HTML.replace('sha384-entry', 'sha384-new') }), null);
    expect(changes).toEqual([
      { kind: 'integrity_changed', subject: ENTRY, detail: 'integrity sha384-new, manifest sha384-entry' },
    ]);
  });

  it('finds a script served without integrity or crossorigin', () => {
    expect(
      comparePage(manifest, served({ html: HTML.replace(' integrity="sha384-entry"', '') }), null),
    ).toEqual([{ kind: 'integrity_missing', subject: ENTRY, detail: 'served without integrity' }]);
    expect(comparePage(manifest, served({ html: HTML.replace(' crossorigin', '') }), null)).toEqual([
      { kind: 'integrity_missing', subject: ENTRY, detail: 'served without crossorigin' },
    ]);
  });

  it('finds a changed or missing header, and a policy that lets other scripts in', () => {
    expect(comparePage(manifest, served({ headers: { 'x-frame-options': undefined } }), null)).toEqual([
      { kind: 'header_changed', subject: 'x-frame-options', detail: 'missing, expected DENY' },
    ]);
    const loose = (served().headers['content-security-policy'] ?? '')
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline' https://cdn.example 'sha256-abc='")
      .replace("object-src 'none'", 'object-src *');
    expect(comparePage(manifest, served({ headers: { 'content-security-policy': loose } }), null)).toEqual([
      {
        kind: 'header_changed',
        subject: 'content-security-policy object-src',
        detail: "object-src *, expected object-src 'none'",
      },
      {
        kind: 'header_changed',
        subject: 'content-security-policy script-src',
        detail: "'unsafe-inline', expected no source beyond the manifest",
      },
      {
        kind: 'header_changed',
        subject: 'content-security-policy script-src',
        detail: 'https://cdn.example, expected no source beyond the manifest',
      },
      {
        kind: 'header_changed',
        subject: 'content-security-policy script-src',
        detail: "'sha256-abc=', expected no source beyond the manifest",
      },
    ]);
    // The server knows its settings: another processor's policy is a change there.
    const changes = comparePage(
      manifest,
      served(),
      pageContentSecurityPolicy(null, { name: 'stripe' }, manifest.scriptHashes),
    );
    expect(changes.map((change) => change.subject)).toEqual(['content-security-policy']);
  });
});

describe('thirdPartyScriptSources', () => {
  it("lists what script-src allows beside 'self', or default-src without it", () => {
    expect(thirdPartyScriptSources(pageContentSecurityPolicy(null, { name: 'stripe' }))).toEqual([
      'https://js.stripe.com',
    ]);
    expect(thirdPartyScriptSources("default-src 'self' https://x.example")).toEqual(['https://x.example']);
    expect(thirdPartyScriptSources(undefined)).toEqual([]);
    expect(thirdPartyScriptSources("script-src 'self' 'sha256-abc=' 'unsafe-eval'")).toEqual([
      "'unsafe-eval'",
    ]);
  });
});
