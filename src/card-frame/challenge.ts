// The test processor's stand-in for the bank's 3-D Secure page, shown by the checkout in a dialog (docs/payments.md,
// "The built-in test processor"). The decision is the server's; the page only hears the outcome, from here.
import './frame.css';
import { frameMessage, type FrameMessage } from '../domain/card-frame-messages.js';
import { readProcessorConfig } from './processor-config.js';
import { speakFrameLanguage } from './frame-language.js';

const t = await speakFrameLanguage(document, window.location.search);

const { checkoutOrigin, challenge } = readProcessorConfig(document);
const status = document.getElementById('challenge-status') as HTMLElement;
const buttons = [
  document.getElementById('challenge-complete') as HTMLButtonElement,
  document.getElementById('challenge-fail') as HTMLButtonElement,
];

function post(message: FrameMessage): void {
  if (window.parent !== window) window.parent.postMessage(frameMessage(message), checkoutOrigin);
}

function finish(result: 'succeeded' | 'failed'): void {
  for (const button of buttons) button.disabled = true;
  status.textContent = t(result === 'succeeded' ? 'card.completed' : 'card.failed');
  post({ type: 'challenge-result', status: result });
}

async function decide(result: 'complete' | 'fail'): Promise<void> {
  for (const button of buttons) button.disabled = true;
  status.textContent = t('card.asking');
  try {
    const response = await fetch(`/challenge/${encodeURIComponent(challenge?.id ?? '')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ result }),
    });
    const body = (await response.json()) as { status?: unknown; message?: unknown };
    if (response.ok && (body.status === 'succeeded' || body.status === 'failed')) return finish(body.status);
    status.textContent = typeof body.message === 'string' ? body.message : t('card.bank_no_answer');
  } catch {
    status.textContent = t('card.bank_no_answer');
  }
  for (const button of buttons) button.disabled = false;
}

buttons[0]?.addEventListener('click', () => void decide('complete'));
buttons[1]?.addEventListener('click', () => void decide('fail'));
// Escape here never reaches the checkout's dialog (another document has the keys): tell the page it was closed.
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') post({ type: 'challenge-closed' });
});

// Decided already (a reload, a second tab): the outcome stands, and the page hears it again.
if (challenge && challenge.status !== 'pending') finish(challenge.status);
