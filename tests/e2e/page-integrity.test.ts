import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  inlineScriptHashesOf,
  pageScriptsOf,
  type PageManifest,
} from '../../src/server/modules/page/page-manifest.js';

// The built page (npm run build): every script, module preload and stylesheet of index.html carries the SRI hash of
// the file as written, and the import map carries every chunk's (docs/security.md, "Page scripts").

const clientDir = path.resolve(import.meta.dirname, '../../dist/client');
const sha384 = (file: string) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
const fileOf = (src: string) => path.join(clientDir, src.replace(/^\/checkout\//, ''));

describe("the built page's integrity", () => {
  const html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(
    readFileSync(path.join(clientDir, 'page-manifest.json'), 'utf8'),
  ) as PageManifest;

  it('puts on each tag the hash of the file it names, with crossorigin', () => {
    const tags = pageScriptsOf(html);
    expect(tags.filter((tag) => tag.kind === 'script').length).toBeGreaterThanOrEqual(1);
    for (const tag of tags) {
      expect(tag.crossorigin, tag.src).toBe(true);
      expect(tag.integrity, tag.src).toBe(sha384(fileOf(tag.src)));
    }
    expect(manifest.scripts).toEqual(tags);
  });

  it("gives every chunk its hash in the import map, the page's one inline script, and the manifest the same", () => {
    const map = /<script type="importmap">([^<]*)<\/script>/.exec(html)?.[1] ?? '{}';
    const { integrity } = JSON.parse(map) as { integrity: Record<string, string> };
    const chunks = readdirSync(path.join(clientDir, 'assets')).filter((name) => name.endsWith('.js'));
    expect(Object.keys(integrity).sort()).toEqual(chunks.map((name) => `/checkout/assets/${name}`).sort());
    for (const [src, hash] of Object.entries(integrity)) expect(hash, src).toBe(sha384(fileOf(src)));
    for (const asset of manifest.assets) expect(asset.integrity, asset.src).toBe(sha384(fileOf(asset.src)));
    expect(manifest.scriptHashes).toEqual(inlineScriptHashesOf(html));
    expect(manifest.scriptHashes).toHaveLength(1);
  });
});
