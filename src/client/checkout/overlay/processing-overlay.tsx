import { useT } from '../../i18n/use-t.js';
import { Overlay } from '../../ui/overlay.js';

/** Shown while the order is being processed: nothing behind it can be pressed twice. */
export function ProcessingOverlay() {
  const { t } = useT();
  return <Overlay label={t('checkout.processing')} />;
}
