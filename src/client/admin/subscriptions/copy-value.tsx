import { useId, useRef, useState } from 'react';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';

/**
 * A value to pass on (a key, a secret, a link): shown in a read-only field a person can select, with a button that
 * copies it. Where the browser refuses the clipboard, the text is selected so the person can copy it themselves.
 */
export function CopyValue(props: { label: string; value: string; id?: string }) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const input = useRef<HTMLInputElement>(null);
  const announce = useAnnounce();
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setSaid('Copied.');
      announce(`${props.label}: copied.`);
    } catch {
      input.current?.select();
      setSaid('Your browser did not let the page copy it: it is selected, copy it with your keyboard.');
    }
  };
  return (
    <div className="copy-value">
      <label className="field__label" htmlFor={id}>
        {props.label}
      </label>
      <div className="copy-value__row">
        <input
          ref={input}
          id={id}
          className="field__input copy-value__input"
          readOnly
          value={props.value}
          onFocus={(event) => event.target.select()}
        />
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
      {said ? <p className="copy-value__said">{said}</p> : null}
    </div>
  );
}
