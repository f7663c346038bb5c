// npm run check:page -- <checkout URL> [--manifest dist/client/page-manifest.json]
// Fetches the checkout page as a browser would, and every file it or the build's manifest names, and prints how the
// page differs from the manifest: scripts and module preloads (src and integrity), files whose bytes changed, the
// third-party script origins its policy allows, and its security headers. Exit 1 on a change, 2 when it cannot check
// (docs/security.md, "Page scripts").
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkServedPage, describeChanges, type PageGet } from '../src/server/modules/page/page-check.js';
import { PAGE_MANIFEST_FILE, type PageManifest } from '../src/server/modules/page/page-manifest.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string', default: path.join('dist/client', PAGE_MANIFEST_FILE) } },
});
const pageUrl = positionals[0];
if (pageUrl === undefined) {
  console.error('Usage: npm run check:page -- <checkout URL> [--manifest dist/client/page-manifest.json]');
  // Every checkout is the same page; a checkout link (__c__…) would make a cart on each run.
  console.error('Give https://<host>/checkout: the page every checkout is served from.');
  process.exit(2);
}

const get: PageGet = async (url, acceptEncoding) => {
  // Redirects are followed as a browser would; the page a shopper lands on is the one checked. fetch decodes the body.
  const response = await fetch(url, {
    headers: { accept: 'text/html,*/*', 'accept-encoding': acceptEncoding },
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
};

try {
  const manifest = JSON.parse(await readFile(values.manifest ?? '', 'utf8')) as PageManifest;
  const result = await checkServedPage(get, pageUrl, manifest, null);
  const origins = result.thirdPartyScriptSources;
  console.log(`page: ${pageUrl}`);
  console.log(
    `manifest: ${values.manifest} (${manifest.scripts.length} tags, ${manifest.assets.length} files)`,
  );
  console.log(
    `third-party script sources its policy allows: ${origins.length > 0 ? origins.join(' ') : 'none'}`,
  );
  if (result.changes.length === 0) {
    console.log('no change: the served page matches the manifest');
  } else {
    console.log(`${result.changes.length} change(s):`);
    for (const line of describeChanges(result.changes)) console.log(`  ${line}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`The page could not be checked: ${(error as Error).message}`);
  process.exitCode = 2;
}
