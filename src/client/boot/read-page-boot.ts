import type * as PageConfigSchemas from '../../contract/page-config.js';
import type { PageConfig } from '../../contract/page-config.js';
import type { Message } from '../../i18n/message-keys.js';
import { loadResponseSchemas } from '../api/lazy-schema.js';

export type PageBoot =
  | { ok: true; config: PageConfig }
  | {
      ok: false;
      /** the server's words, or the page's own message when the page itself is broken */
      message: string | Message;
      /** the server's error code, when it sent one */
      code: string | null;
    };

const BROKEN: Message = { key: 'checkout.boot_broken' };

/** The server's JSON config block (no inline script runs: it is data), checked against the contract. */
export async function readPageBoot(doc: Document): Promise<PageBoot> {
  const element = doc.getElementById('checkout-config');
  if (!element?.textContent) return { ok: false, message: BROKEN, code: null };
  let data: unknown;
  try {
    data = JSON.parse(element.textContent);
  } catch {
    return { ok: false, message: BROKEN, code: null };
  }
  // The config's own schema is a small chunk of its own; the answers' schemas (the cart's, the order's: most of the
  // contract) download and build meanwhile, as a task of their own, while the handshake is on its way.
  void loadResponseSchemas().catch(() => undefined);
  let schemas: typeof PageConfigSchemas;
  try {
    schemas = await import('../../contract/page-config.js');
  } catch {
    return { ok: false, message: BROKEN, code: null };
  }
  const parsed = schemas.PageBootSchema.safeParse(data);
  if (!parsed.success) return { ok: false, message: BROKEN, code: null };
  if ('error' in parsed.data)
    return { ok: false, message: parsed.data.error.message, code: parsed.data.error.code };
  return { ok: true, config: parsed.data };
}
