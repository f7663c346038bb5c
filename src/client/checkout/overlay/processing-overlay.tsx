import { Overlay } from '../../ui/overlay.js';

/** Shown while the order is being processed: nothing behind it can be pressed twice. */
export function ProcessingOverlay() {
  return <Overlay label="Processing your order…" />;
}
