import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageContentSecurityPolicy } from '../../platform/http/security-headers.js';
import {
  cspHashOf,
  inlineScriptHashesOf,
  pageScriptsOf,
  policyDirectives,
  withImportMapIntegrity,
  withIntegrity,
  writePageIntegrity,
} from './page-manifest.js';

const sha384 = (bytes: Buffer | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

describe('withIntegrity', () => {
  it('puts integrity and crossorigin on the scripts, preloads and stylesheets it knows, and only those', () => {
    const html =
      '<script type="module" crossorigin src="/a.js"></script><link rel="modulepreload" href="/b.js">' +
      '<link rel=stylesheet href="/c.css" integrity="sha384-old"/><link rel="icon" href="/a.js">' +
      '<script src="https://elsewhere.example/x.js"></script><script type="application/json">{}</script>';
    const out = withIntegrity(html, (src) => (src.startsWith('/') ? `sha384-${src.slice(1, 2)}` : null));
    expect(pageScriptsOf(out)).toEqual([
      { kind: 'script', src: '/a.js', integrity: 'sha384-a', crossorigin: true },
      { kind: 'modulepreload', src: '/b.js', integrity: 'sha384-b', crossorigin: true },
      { kind: 'stylesheet', src: '/c.css', integrity: 'sha384-c', crossorigin: true },
      { kind: 'script', src: 'https://elsewhere.example/x.js', integrity: null, crossorigin: false },
    ]);
    expect(out).toContain('<link rel=stylesheet href="/c.css" crossorigin integrity="sha384-c"/>');
    expect(out).toContain('<link rel="icon" href="/a.js">');
  });
});

describe('writePageIntegrity', () => {
  it('writes hashes into index.html that match the files, and a manifest of every file of the build', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sc-integrity-'));
    mkdirSync(path.join(dir, 'assets'));
    const files = {
      'entry-1.js': '//# allFunctionsCalledOnLoad\nimport "./dep-2.js";',
      'dep-2.js': 'export {}',
      'later-3.js': 'x',
      'page-4.css': 'a{}',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'assets', name), text);
    writeFileSync(
      path.join(dir, 'index.html'),
      '<head><script type="module" crossorigin src="/checkout/assets/entry-1.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/checkout/assets/dep-2.js">' +
        '<link rel="stylesheet" crossorigin href="/checkout/assets/page-4.css"></head>',
    );
    const manifest = await writePageIntegrity(dir, '/checkout/');
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    const tags = pageScriptsOf(html);
    expect(tags.map((tag) => tag.kind)).toEqual(['script', 'modulepreload', 'stylesheet']);
    for (const tag of tags) {
      expect(tag.crossorigin).toBe(true);
      expect(tag.integrity).toBe(sha384(readFileSync(path.join(dir, tag.src.replace('/checkout/', '')))));
    }
    expect(manifest.scripts).toEqual(tags);
    // The chunk loaded later is checked by the browser through the import map.
    expect(html).toContain(`"/checkout/assets/later-3.js":"${sha384('x')}"`);
    expect(manifest.scriptHashes).toEqual(inlineScriptHashesOf(html));
    expect(manifest.scriptHashes).toHaveLength(1);
    expect(manifest.assets.map((asset) => asset.src).sort()).toEqual(
      Object.keys(files)
        .map((name) => `/checkout/assets/${name}`)
        .sort(),
    );
    expect(manifest.assets.find((a) => a.src.endsWith('later-3.js'))?.integrity).toBe(sha384('x'));
    expect(JSON.parse(readFileSync(path.join(dir, 'page-manifest.json'), 'utf8'))).toEqual(manifest);
    // The policy's directives no setting changes; script, connect and frame sources follow the configuration.
    expect(manifest.policy.fixed['object-src']).toBe("object-src 'none'");
    expect(manifest.policy.fixed['script-src']).toBeUndefined();
    expect(manifest.headers['x-frame-options']).toBe('DENY');
  });
});

describe('the import map', () => {
  it("goes before the first module script with every chunk's integrity, and its hash is the policy's", () => {
    const html =
      '<head><script type="application/json">{}</script><script type="module" src="/a.js"></script></head>';
    const out = withImportMapIntegrity(html, { '/a.js': 'sha384-a', '/later.js': 'sha384-l' });
    const map = '{"integrity":{"/a.js":"sha384-a","/later.js":"sha384-l"}}';
    expect(out).toContain(`<script type="importmap">${map}</script>\n    <script type="module" src="/a.js">`);
    // The config block is data, never run: only the import map needs the policy's leave.
    expect(inlineScriptHashesOf(out)).toEqual([cspHashOf(map)]);
    expect(cspHashOf(map)).toBe(`'sha256-${createHash('sha256').update(map).digest('base64')}'`);
    expect(withImportMapIntegrity('<head></head>', {})).toBe('<head></head>');
  });
});

describe('policyDirectives', () => {
  it('reads a policy by directive name, the first of a repeated one', () => {
    const directives = policyDirectives(`${pageContentSecurityPolicy(null)}; script-src *`);
    expect(directives['script-src']).toBe("script-src 'self'");
    expect(directives['frame-ancestors']).toBe("frame-ancestors 'none'");
  });
});
