import { act } from '@testing-library/react';
import type { CardProcessorConfig } from '../../contract/page-config.js';
import type { Language } from '../../i18n/languages.js';
import type {
  CardFieldsState,
  CardProcessor,
  MountOptions,
  Outcome,
  PaymentAction,
} from '../checkout/payment/processors/card-processor.js';

const EMPTY: CardFieldsState = { brand: null, complete: false, empty: true, error: null };

/**
 * A card processor for component tests: it mounts a placeholder where the frame would be, and the test says what
 * the frame would report (change), what its tokens and the bank's challenges answer, and reads what the page asked.
 */
export interface FakeCardProcessor {
  load: (config: CardProcessorConfig) => Promise<CardProcessor>;
  /** the processor config the page asked for */
  configs: CardProcessorConfig[];
  /** the fields on the page now: the container they were mounted in and the options given */
  mounted: { container: HTMLElement; options: MountOptions } | null;
  mounts: number;
  destroyed: number;
  focused: number;
  filled: string[];
  /** the languages the mounted fields were told to turn to (the page's switcher) */
  languages: Language[];
  tokenized: number;
  /** answers of the next tokenize calls, in order; when none is left, a new token tok_{n} */
  tokenizeAnswers: Outcome<{ token: string }>[];
  authentications: PaymentAction[];
  /** answers of the next authenticate calls; when none is left, onAuthenticate's, else ok */
  authenticateAnswers: Outcome[];
  onAuthenticate: ((action: PaymentAction) => Promise<Outcome>) | null;
  /** mount fails (the adapter's chunk or the frame could not load) while this is set */
  failMount: boolean;
  /** what the frame reports as the shopper types */
  change(state: Partial<CardFieldsState>): Promise<void>;
  /** a complete card of a brand the store takes */
  enterCard(brand?: CardFieldsState['brand']): Promise<void>;
}

export function createFakeCardProcessor(options: { fillable?: boolean } = {}): FakeCardProcessor {
  const fake: FakeCardProcessor = {
    configs: [],
    mounted: null,
    mounts: 0,
    destroyed: 0,
    focused: 0,
    filled: [],
    languages: [],
    tokenized: 0,
    tokenizeAnswers: [],
    authentications: [],
    authenticateAnswers: [],
    onAuthenticate: null,
    failMount: false,
    async load(config) {
      fake.configs.push(config);
      return processor;
    },
    async change(state) {
      const mounted = fake.mounted;
      if (!mounted) throw new Error('No card fields are mounted.');
      await act(async () => mounted.options.onChange({ ...EMPTY, ...state }));
    },
    async enterCard(brand = 'visa') {
      await fake.change({ brand, complete: true, empty: false, error: null });
    },
  };
  const processor: CardProcessor = {
    async mount(container, mountOptions) {
      if (fake.failMount) throw new Error('The card frame could not load.');
      const placeholder = document.createElement('div');
      placeholder.setAttribute('data-testid', 'fake-card-frame');
      container.append(placeholder);
      const mounted = { container, options: mountOptions };
      fake.mounted = mounted;
      fake.mounts += 1;
      return {
        async tokenize() {
          fake.tokenized += 1;
          return fake.tokenizeAnswers.shift() ?? { ok: true, token: `tok_${fake.tokenized}` };
        },
        async authenticate(action) {
          fake.authentications.push(action);
          return fake.authenticateAnswers.shift() ?? (await fake.onAuthenticate?.(action)) ?? { ok: true };
        },
        ...(options.fillable === false
          ? {}
          : {
              fillTestCard(number: string) {
                fake.filled.push(number);
              },
            }),
        setLanguage(language) {
          fake.languages.push(language);
        },
        focus() {
          fake.focused += 1;
        },
        destroy() {
          placeholder.remove();
          fake.destroyed += 1;
          if (fake.mounted === mounted) fake.mounted = null;
        },
      };
    },
  };
  return fake;
}
