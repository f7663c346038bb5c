// The processor's pages get their config from the server in a JSON block (their policy runs no inline script):
// the checkout's origin, the only one they talk to, and on the challenge page the challenge.

export interface ProcessorConfig {
  checkoutOrigin: string;
  challenge?: { id: string; status: 'pending' | 'succeeded' | 'failed' };
}

/** The config block's content; throws when it is missing, since the page could then talk to nobody safely. */
export function readProcessorConfig(document: Document): ProcessorConfig {
  const text = document.getElementById('processor-config')?.textContent ?? '';
  const config = JSON.parse(text || 'null') as ProcessorConfig | null;
  if (!config || typeof config.checkoutOrigin !== 'string')
    throw new Error('The processor config is missing.');
  return config;
}
