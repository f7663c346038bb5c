import {
  inlineScriptHashesOf,
  pageScriptsOf,
  policyDirectives,
  sriOf,
  type PageManifest,
  type PageScript,
} from './page-manifest.js';

/** The served page as the check sees it: its headers, its HTML, and the bytes of every file it names. */
export interface ServedPage {
  headers: Record<string, string | undefined>;
  html: string;
  /**
   * SRI hash of what the server sends for a URL of the page (first-load and on-demand files), by the encoding asked
   * for (the server keeps a precompressed copy of each file apart), null when not 200.
   */
  integrityOf: (src: string) => Record<string, string | null>;
}

/** One way the served page differs from the manifest, said so an operator can act on it. */
export interface PageChange {
  kind:
    | 'script_added'
    | 'script_removed'
    | 'integrity_missing'
    | 'integrity_changed'
    | 'content_changed'
    | 'header_changed';
  subject: string;
  detail: string;
}

const key = (script: Pick<PageScript, 'kind' | 'src'>) => `${script.kind} ${script.src}`;

const isHashSource = (source: string) => /^'sha(256|384|512)-/.test(source);

/** The sources of script-src (or default-src without it). */
function scriptSources(policy: string | undefined): string[] {
  const directives = policyDirectives(policy ?? '');
  return (directives['script-src'] ?? directives['default-src'])?.split(' ').slice(1) ?? [];
}

/** Sources in script-src other than 'self' and inline scripts' hashes: what third parties may run on the page. */
export function thirdPartyScriptSources(policy: string | undefined): string[] {
  return scriptSources(policy).filter((source) => source !== "'self'" && !isHashSource(source));
}

function scriptChanges(manifest: PageManifest, served: ServedPage): PageChange[] {
  const changes: PageChange[] = [];
  const seen = pageScriptsOf(served.html);
  const expected = new Map(manifest.scripts.map((script) => [key(script), script]));
  const present = new Set(seen.map(key));
  for (const script of seen) {
    const wanted = expected.get(key(script));
    if (!wanted) {
      changes.push({
        kind: 'script_added',
        subject: script.src,
        detail: `a ${script.kind} not in the manifest`,
      });
      continue;
    }
    if (script.integrity === null || !script.crossorigin) {
      const missing = script.integrity === null ? 'integrity' : 'crossorigin';
      changes.push({ kind: 'integrity_missing', subject: script.src, detail: `served without ${missing}` });
    } else if (script.integrity !== wanted.integrity) {
      changes.push({
        kind: 'integrity_changed',
        subject: script.src,
        detail: `integrity ${script.integrity}, manifest ${wanted.integrity ?? 'none'}`,
      });
    }
  }
  // Inline scripts run only when the policy names their hash: the build's import map, nothing else.
  const inline = inlineScriptHashesOf(served.html);
  for (const hash of inline) {
    if (!manifest.scriptHashes.includes(hash))
      changes.push({ kind: 'script_added', subject: `inline script ${hash}`, detail: 'not in the manifest' });
  }
  for (const hash of manifest.scriptHashes) {
    if (!inline.includes(hash))
      changes.push({
        kind: 'script_removed',
        subject: `inline script ${hash}`,
        detail: "the manifest's import map is not served",
      });
  }
  for (const script of manifest.scripts) {
    if (!present.has(key(script)))
      changes.push({
        kind: 'script_removed',
        subject: script.src,
        detail: `the manifest's ${script.kind} is not served`,
      });
  }
  // Every file of the build, those loaded on demand too: an import() carries no integrity of its own.
  for (const asset of manifest.assets) {
    for (const [encoding, actual] of Object.entries(served.integrityOf(asset.src))) {
      if (actual === asset.integrity) continue;
      changes.push({
        kind: 'content_changed',
        subject: asset.src,
        detail: `${actual === null ? 'not served' : `served ${actual}`} (${encoding}), manifest ${asset.integrity}`,
      });
    }
  }
  return changes;
}

function headerChanges(
  manifest: PageManifest,
  served: ServedPage,
  expectedPolicy: string | null,
): PageChange[] {
  const changes: PageChange[] = [];
  const changed = (subject: string, actual: string | undefined, wanted: string) =>
    changes.push({ kind: 'header_changed', subject, detail: `${actual ?? 'missing'}, expected ${wanted}` });
  for (const [name, wanted] of Object.entries(manifest.headers)) {
    if (served.headers[name] !== wanted) changed(name, served.headers[name], wanted);
  }
  const policy = served.headers['content-security-policy'];
  if (expectedPolicy !== null) {
    // The server knows its own settings: the whole policy must be the one it sets.
    if (policy !== expectedPolicy) changed('content-security-policy', policy, expectedPolicy);
    return changes;
  }
  const directives = policyDirectives(policy ?? '');
  for (const [name, wanted] of Object.entries(manifest.policy.fixed)) {
    if (directives[name] !== wanted) changed(`content-security-policy ${name}`, directives[name], wanted);
  }
  for (const source of scriptSources(policy).filter((s) => s !== "'self'")) {
    const known = isHashSource(source)
      ? manifest.scriptHashes.includes(source)
      : source in manifest.policy.thirdPartyScriptOrigins;
    if (!known) changed('content-security-policy script-src', source, 'no source beyond the manifest');
  }
  return changes;
}

/**
 * How the served page differs from the build's manifest: scripts added or removed, integrity missing or changed,
 * files whose bytes changed, and headers. With `expectedPolicy` (the server's own policy) the CSP must be exactly
 * it; without (a page fetched from outside) its fixed directives must match and script-src may name only the
 * manifest's third-party origins. Empty when nothing changed.
 */
export function comparePage(
  manifest: PageManifest,
  served: ServedPage,
  expectedPolicy: string | null,
): PageChange[] {
  return [...scriptChanges(manifest, served), ...headerChanges(manifest, served, expectedPolicy)];
}

/** A URL's answer, its body decoded, asking for one encoding (fetch outside the server, inject inside it). */
export type PageGet = (
  url: string,
  acceptEncoding: string,
) => Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>;

/** Each file is checked as every encoding serves it: the .br and .gz beside a file are copies that can differ. */
export const CHECKED_ENCODINGS = ['identity', 'gzip', 'br'] as const;

/** Fetches the page and every file it or the manifest names, and compares them with the manifest. */
export async function checkServedPage(
  get: PageGet,
  pageUrl: string,
  manifest: PageManifest,
  expectedPolicy: string | null,
): Promise<{ changes: PageChange[]; thirdPartyScriptSources: string[] }> {
  const page = await get(pageUrl, 'identity');
  const html = page.body.toString('utf8');
  const urls = new Set([
    ...pageScriptsOf(html).map((script) => script.src),
    ...manifest.assets.map((a) => a.src),
  ]);
  const hashes = new Map<string, Record<string, string | null>>();
  for (const src of urls) {
    const byEncoding: Record<string, string | null> = {};
    for (const encoding of CHECKED_ENCODINGS) {
      const answer = await get(new URL(src, pageUrl).toString(), encoding);
      byEncoding[encoding] = answer.status === 200 ? sriOf(answer.body) : null;
    }
    hashes.set(src, byEncoding);
  }
  const served: ServedPage = {
    headers: page.headers,
    html,
    integrityOf: (src) => hashes.get(src) ?? { identity: null },
  };
  return {
    changes: comparePage(manifest, served, expectedPolicy),
    thirdPartyScriptSources: thirdPartyScriptSources(page.headers['content-security-policy']),
  };
}

/** The check's findings as lines for a terminal or a log. */
export function describeChanges(changes: readonly PageChange[]): string[] {
  return changes.map((change) => `${change.kind}: ${change.subject} (${change.detail})`);
}
