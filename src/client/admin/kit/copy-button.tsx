import { useEffect, useState } from 'react';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';

/** Copies a text (a link's address); the button then says "Copied" for a while, and it is announced. */
export function CopyButton(props: { text: string; label: string }) {
  const announce = useAnnounce();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 4000);
    return () => window.clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
      announce('Copied');
    } catch {
      setState('failed');
      announce('The browser did not let the page copy. Select the address and copy it.');
    }
  };
  return (
    <Button
      variant="secondary"
      aria-label={state === 'idle' ? props.label : undefined}
      onClick={() => void copy()}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </Button>
  );
}
