import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FIXED_SECURITY_HEADERS,
  pageContentSecurityPolicy,
  REPORTING_ENDPOINTS,
  STRIPE_JS_ORIGIN,
} from '../../platform/http/security-headers.js';

/**
 * What the checkout page should load and send, written by the build next to index.html: the inventory of PCI DSS
 * 6.4.3 and what the page check compares the served page with (11.6.1; docs/security.md, "Page scripts").
 */
export interface PageManifest {
  version: 1;
  /** Every script, module preload and stylesheet of index.html, in order, with its SRI hash. */
  scripts: PageScript[];
  /** Every script and stylesheet of the build (first load and on demand) by URL, with its SRI hash. */
  assets: { src: string; integrity: string }[];
  /**
   * CSP hash sources of the page's inline scripts: its import map, which gives every chunk its integrity, those
   * loaded by import() too. The page's policy allows these and no other inline script.
   */
  scriptHashes: string[];
  /** Headers the page carries exactly, whatever the configuration. */
  headers: Record<string, string>;
  policy: {
    /** Directives of the page's Content-Security-Policy that no setting changes. */
    fixed: Record<string, string>;
    /** Origins script-src may allow beside 'self', and why (Stripe.js when Stripe takes the cards). */
    thirdPartyScriptOrigins: Record<string, string>;
  };
}

export type PageScriptKind = 'script' | 'modulepreload' | 'stylesheet';

export interface PageScript {
  kind: PageScriptKind;
  src: string;
  integrity: string | null;
  crossorigin: boolean;
}

export const PAGE_MANIFEST_FILE = 'page-manifest.json';

/** SHA-384, the strength browsers and the SRI recommendation agree on. */
export function sriOf(bytes: Buffer | string): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

const TAG = /<(script|link)\b[^>]*>/gi;
/** Inline scripts with their text; a `type` browsers do not run (application/json: the config block) is data. */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const EXECUTED_TYPES = new Set([
  '',
  'module',
  'importmap',
  'text/javascript',
  'application/javascript',
  'speculationrules',
]);

/** The CSP hash source of an inline script's text, as script-src names it. */
export function cspHashOf(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/** The CSP hash sources of a page's inline scripts that browsers run (none of its data blocks). */
export function inlineScriptHashesOf(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = ` ${match[1] ?? ''}`;
    if (attributeOf(attributes, 'src') !== null) continue;
    const type = (attributeOf(attributes, 'type') ?? '').trim().toLowerCase();
    if (EXECUTED_TYPES.has(type)) hashes.push(cspHashOf(match[2] ?? ''));
  }
  return hashes;
}

/**
 * An import map with every chunk's integrity, put before the page's first module script: browsers check a chunk
 * that import() loads against it (the import map's integrity, Chromium 127, Firefox 138, Safari 18; others ignore it).
 */
export function withImportMapIntegrity(html: string, integrity: Record<string, string>): string {
  const map = `<script type="importmap">${JSON.stringify({ integrity })}</script>`;
  const first = /<script\b[^>]*\btype="module"|<link\b[^>]*\brel="modulepreload"/i.exec(html);
  if (!first) return html;
  return `${html.slice(0, first.index)}${map}\n    ${html.slice(first.index)}`;
}

function attributeOf(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+)))?(?=[\\s/>])`, 'i').exec(
    tag,
  );
  if (!match) return null;
  return match[1] ?? match[2] ?? match[3] ?? '';
}

function scriptOfTag(tag: string, element: string): PageScript | null {
  let kind: PageScriptKind | null = null;
  let src: string | null = null;
  if (element.toLowerCase() === 'script') {
    src = attributeOf(tag, 'src');
    kind = 'script';
  } else {
    const rel = attributeOf(tag, 'rel')?.toLowerCase();
    if (rel === 'modulepreload' || rel === 'stylesheet') kind = rel;
    src = attributeOf(tag, 'href');
  }
  if (kind === null || src === null) return null;
  return {
    kind,
    src,
    integrity: attributeOf(tag, 'integrity'),
    crossorigin: attributeOf(tag, 'crossorigin') !== null,
  };
}

/** The scripts, module preloads and stylesheets a page's HTML loads, in order (inline scripts have no src: none). */
export function pageScriptsOf(html: string): PageScript[] {
  const found: PageScript[] = [];
  for (const match of html.matchAll(TAG)) {
    const script = scriptOfTag(match[0], match[1] ?? '');
    if (script) found.push(script);
  }
  return found;
}

/**
 * The HTML with `integrity` and `crossorigin` on every script, module preload and stylesheet whose hash
 * `integrityOf` knows (our own files); a tag it does not know is left as it is, and the page check reports it.
 */
export function withIntegrity(html: string, integrityOf: (src: string) => string | null): string {
  return html.replace(TAG, (tag, element: string) => {
    const script = scriptOfTag(tag, element);
    const integrity = script ? integrityOf(script.src) : null;
    if (!script || integrity === null) return tag;
    let out = tag.replace(/\s+integrity(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?(?=[\s/>])/i, '');
    if (!script.crossorigin) out = out.replace(/\s*\/?>$/, (end) => ` crossorigin${end}`);
    return out.replace(/\s*\/?>$/, (end) => ` integrity="${integrity}"${end}`);
  });
}

/** A CSP header as its directives, by name (the first of a repeated one counts, as browsers do). */
export function policyDirectives(policy: string): Record<string, string> {
  const directives: Record<string, string> = {};
  for (const entry of policy.split(';')) {
    const text = entry.trim().replace(/\s+/g, ' ');
    const name = text.split(' ')[0]?.toLowerCase();
    if (name && !(name in directives)) directives[name] = text;
  }
  return directives;
}

/** The directives that depend on settings: script, connect and frame sources (processor, DSN). */
const CONFIGURED_DIRECTIVES = new Set(['script-src', 'connect-src', 'frame-src']);

/** The manifest's expectations of headers and policy, from the same code that sets them. */
export function expectedPageHeaders(): Pick<PageManifest, 'headers' | 'policy'> {
  const fixed = Object.fromEntries(
    Object.entries(policyDirectives(pageContentSecurityPolicy(null))).filter(
      ([name]) => !CONFIGURED_DIRECTIVES.has(name),
    ),
  );
  return {
    headers: { ...FIXED_SECURITY_HEADERS, 'reporting-endpoints': REPORTING_ENDPOINTS },
    policy: {
      fixed,
      thirdPartyScriptOrigins: { [STRIPE_JS_ORIGIN]: 'Stripe.js, when Stripe takes the cards' },
    },
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(js|css)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * After the build has written its files: puts SRI hashes on index.html's scripts, module preloads and stylesheets
 * (hashed from the files as written, after every plugin is done with them) and writes PAGE_MANIFEST_FILE.
 * `base` is the URL the output folder is served under ('/checkout/').
 */
export async function writePageIntegrity(outDir: string, base: string): Promise<PageManifest> {
  const assets: PageManifest['assets'] = [];
  const bySrc = new Map<string, string>();
  for (const file of await filesUnder(path.join(outDir, 'assets'))) {
    const src = `${base}${path.relative(outDir, file).split(path.sep).join('/')}`;
    const integrity = sriOf(await readFile(file));
    assets.push({ src, integrity });
    bySrc.set(src, integrity);
  }
  const indexFile = path.join(outDir, 'index.html');
  const chunks = Object.fromEntries(
    assets.filter((asset) => asset.src.endsWith('.js')).map((a) => [a.src, a.integrity]),
  );
  const html = withImportMapIntegrity(
    withIntegrity(await readFile(indexFile, 'utf8'), (src) => bySrc.get(src) ?? null),
    chunks,
  );
  await writeFile(indexFile, html);
  const manifest: PageManifest = {
    version: 1,
    scripts: pageScriptsOf(html),
    assets,
    scriptHashes: inlineScriptHashesOf(html),
    ...expectedPageHeaders(),
  };
  await writeFile(path.join(outDir, PAGE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The manifest the build wrote into the page's folder, or null (an unbuilt page: API tests, `npm run dev`). */
export async function readPageManifest(clientDir: string | null): Promise<PageManifest | null> {
  if (clientDir === null) return null;
  const file = path.join(clientDir, PAGE_MANIFEST_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(await readFile(file, 'utf8')) as PageManifest;
}
