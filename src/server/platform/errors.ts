import type { ApiError } from '../../contract/errors.js';
import { sayFieldMessages, type FieldMessages } from '../../domain/field-errors.js';
import { DEFAULT_LANGUAGE, type Language } from '../../i18n/languages.js';
import type { Message } from '../../i18n/message-keys.js';
import { translatorFor } from '../i18n/translator.js';

/**
 * What a refusal says in the reader's language (docs/languages.md): a message, or one made for the language when its
 * values are written as that language writes them (a date, an amount).
 */
export type RefusalMessage = Message | ((language: Language) => Message);

function messageIn(message: RefusalMessage, language: Language): Message {
  return typeof message === 'function' ? message(language) : message;
}

/** A refusal's message in English: the words of the catalogue, the default an answer without a language reads. */
export function inEnglish(message: RefusalMessage): string {
  const { key, values } = messageIn(message, DEFAULT_LANGUAGE);
  return translatorFor(DEFAULT_LANGUAGE)(key, values);
}

/**
 * An expected failure with a status, a stable code and a message written for the person who will read it. `message`
 * is its English; a refusal a shopper reads also carries it as a catalogue message, said in the request's language.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: FieldMessages | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly said: RefusalMessage | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { fields?: FieldMessages; headers?: Record<string, string>; message?: RefusalMessage } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
    this.said = options.message;
  }

  /** The answer's body in a language: the message and field messages from the catalogues, the code unchanged. */
  toBody(language: Language = DEFAULT_LANGUAGE): ApiError {
    const say = translatorFor(language);
    const said = this.said && messageIn(this.said, language);
    return {
      status: this.status,
      code: this.code,
      message: said ? say(said.key, said.values) : this.message,
      ...(this.fields ? { fields: sayFieldMessages(this.fields, say) } : {}),
    };
  }
}

/** A refusal said from the catalogue: its English is the English catalogue's. */
export function refusal(
  status: number,
  code: string,
  message: RefusalMessage,
  options: { fields?: FieldMessages; headers?: Record<string, string> } = {},
): AppError {
  return new AppError(status, code, inEnglish(message), { ...options, message });
}

export function validationError(fields: FieldMessages, message?: string | Message): AppError {
  const count = Object.keys(fields).length;
  if (typeof message === 'string') return new AppError(422, 'validation_failed', message, { fields });
  return refusal(
    422,
    'validation_failed',
    message ?? { key: 'errors.validation_failed', values: { count } },
    {
      fields,
    },
  );
}

export function notFound(code: string, message: string | Message): AppError {
  return typeof message === 'string' ? new AppError(404, code, message) : refusal(404, code, message);
}
