// The test provider's approval page (a stand-in for PayPal's site), in the checkout page's language: <html lang dir>,
// every word from the `provider` catalogue, the amount and the address as the reader's language writes them
// (docs/languages.md).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressFormatOf } from '../../../domain/address/address-data.js';
import { subdivisionName } from '../../../domain/address/address-format.js';
import { COUNTRY_CODES } from '../../../domain/countries.js';
import { formatMoney, minor } from '../../../domain/money.js';
import { directionOf, formattingLocaleOf, type Language } from '../../../i18n/languages.js';
import type { MessageKey } from '../../../i18n/message-keys.js';
import { translatorFor, type Translate } from '../../i18n/translator.js';
import type { AppContext } from '../../platform/context.js';
import type { ExpressPayer } from '../../platform/payments/gateway.js';
import { settingsOf } from '../organizations/organization-service.js';
import { findOrganizationById } from '../organizations/organizations-repository.js';
import { approvalPageLanguage } from './approval-page-language.js';
import type { ExpressPaymentRow } from './express-payments-repository.js';
import {
  CARD_NUMBER_IN_FIELD,
  checkPayer,
  decideTestExpressPayment,
  effectiveStatus,
  expressReturnUrl,
  findWaitingExpressPayment,
  PAYER_FIELDS,
} from './express-service.js';

const BASE = '/checkout/api/test-gateway';

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

// Logical properties only (inline/block, start/end), so the page mirrors right to left.
const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f7fb;color:#1f2937}
main{max-inline-size:32rem;margin-block:2rem;margin-inline:auto;background:#fff;border-radius:4px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin-block:0 .25rem;margin-inline:0}.badge{display:inline-block;background:#ffc439;color:#14213d;font-weight:700;
padding-block:.1rem;padding-inline:.5rem;border-radius:4px}.amount{font-size:1.25rem;font-weight:600}
label{display:block;font-weight:500;margin-block:.75rem .25rem;margin-inline:0;text-align:start}
input,select{inline-size:100%;box-sizing:border-box;font:inherit;padding:.55rem;border:1px solid #6b7280;border-radius:4px}
.error{color:#b91c1c;margin-block:.25rem 0;margin-inline:0}.actions{display:flex;gap:.75rem;margin-block-start:1.5rem;flex-wrap:wrap}
button{font:inherit;font-weight:600;padding-block:.7rem;padding-inline:1.75rem;border-radius:4px;border:2px solid #14213d;cursor:pointer}
.approve{background:#14213d;color:#fff}.cancel{background:#fff;color:#14213d}:focus-visible{outline:3px solid #3d5a98;outline-offset:2px}`;

const SAMPLE_PAYER: ExpressPayer = {
  email: 'payer@example.com',
  fname: 'Pat',
  lname: 'Payer',
  ship_fname: 'Pat',
  ship_lname: 'Payer',
  ship_address1: '500 Congress Ave',
  ship_address2: '',
  ship_city: 'Austin',
  ship_state: 'TX',
  ship_zipcode: '78701',
  ship_country: 'US',
};

type PayerField = (typeof PAYER_FIELDS)[number];

/** Each field's label (where the country's address data names it otherwise, its own) and its autocomplete token. */
const FIELDS: Record<PayerField, [MessageKey, string]> = {
  email: ['provider.email', 'email'],
  fname: ['provider.first_name', 'given-name'],
  lname: ['provider.last_name', 'family-name'],
  ship_address1: ['provider.address', 'address-line1'],
  ship_address2: ['provider.address2', 'address-line2'],
  ship_city: ['provider.city', 'address-level2'],
  ship_state: ['provider.state', 'address-level1'],
  ship_zipcode: ['provider.zipcode', 'postal-code'],
  ship_country: ['provider.country', 'country'],
};

/** The page in a language: what it says and how it writes amounts and names. */
interface Reader {
  language: Language;
  t: Translate;
}

function readerOf(language: Language): Reader {
  return { language, t: translatorFor(language) };
}

function page(reader: Reader, title: string, body: string): string {
  const { language } = reader;
  return `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${BASE}/style.css"></head><body><main>${body}</main></body></html>`;
}

/** The countries to choose from, by their names in the reader's language, in its alphabetical order. */
function countryOptions(reader: Reader, chosen: string): string {
  const locale = formattingLocaleOf(reader.language);
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const collator = new Intl.Collator(locale);
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => collator.compare(a.name, b.name))
    .map(
      ({ code, name }) =>
        `<option value="${code}"${code === chosen ? ' selected' : ''}>${escapeHtml(name)}</option>`,
    )
    .join('');
}

function approvalForm(
  reader: Reader,
  row: ExpressPaymentRow,
  values: Record<string, string>,
  problems: Record<string, string>,
): string {
  const { t, language } = reader;
  const format = addressFormatOf(values.ship_country ?? '');
  const labelOf = (name: PayerField): string => {
    if (format && name === 'ship_state') return t(format.stateLabel);
    if (format && name === 'ship_zipcode') return t(format.postalLabel);
    if (format && name === 'ship_city') return t(format.cityLabel);
    return t(FIELDS[name][0]);
  };
  const field = (name: PayerField) => {
    const autocomplete = FIELDS[name][1];
    const id = `payer-${name}`;
    const error = problems[name];
    const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
    const value = values[name] ?? '';
    let control: string;
    if (name === 'ship_country') {
      control = `<select id="${id}" name="${name}" autocomplete="${autocomplete}"${described}>${countryOptions(reader, value)}</select>`;
    } else if (name === 'ship_state' && format && format.subdivisions.length > 0) {
      control = `<select id="${id}" name="${name}" autocomplete="${autocomplete}"${described}><option value="">${escapeHtml(
        t('provider.choose'),
      )}</option>${format.subdivisions
        .map(
          (s) =>
            `<option value="${s.code}"${s.code === value ? ' selected' : ''}>${escapeHtml(subdivisionName(s, format, language))}</option>`,
        )
        .join('')}</select>`;
    } else {
      control = `<input id="${id}" name="${name}" type="${name === 'email' ? 'email' : 'text'}" autocomplete="${autocomplete}" value="${escapeHtml(value)}"${described}>`;
    }
    return `<label for="${id}">${escapeHtml(labelOf(name))}</label>${control}${error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ''}`;
  };
  // The form's answer is said in the language the form was shown in.
  const action = `${BASE}/approve/${encodeURIComponent(row.public_id)}?lang=${encodeURIComponent(language)}`;
  return page(
    reader,
    t('provider.approve_title'),
    `<p><span class="badge">${escapeHtml(t('provider.badge'))}</span></p><h1>${escapeHtml(t('provider.approve_title'))}</h1>
<p class="amount">${escapeHtml(formatMoney(minor(row.amount), row.currency, formattingLocaleOf(language)))}</p>
<p>${escapeHtml(t('provider.intro'))}</p>
${Object.keys(problems).length > 0 ? `<p class="error" role="alert">${escapeHtml(t('provider.check_fields'))}</p>` : ''}
<form method="post" action="${escapeHtml(action)}" novalidate>
${PAYER_FIELDS.map(field).join('\n')}
<div class="actions"><button class="approve" type="submit" name="decision" value="approve">${escapeHtml(t('provider.approve'))}</button>
<button class="cancel" type="submit" name="decision" value="cancel">${escapeHtml(t('provider.cancel'))}</button></div></form>`,
  );
}

function gone(reply: FastifyReply, reader: Reader, message: MessageKey) {
  const title = reader.t('provider.unavailable_title');
  return reply
    .code(410)
    .type('text/html; charset=utf-8')
    .send(page(reader, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(reader.t(message))}</p>`));
}

/** The local approval page the test gateway sends express payments to (it stands in for PayPal's site). */
export async function registerTestGatewayRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  await app.register(async (scope) => {
    // Only this stand-in provider page takes form posts; every other route stays JSON-only.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 8192 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    scope.get(`${BASE}/style.css`, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLE),
    );

    /** The page's reader: the checkout page's language, for this payment's cart and store. */
    const readerFor = async (request: FastifyRequest, row: ExpressPaymentRow | null): Promise<Reader> => {
      const organization = row ? await findOrganizationById(context.db, row.organization_id) : null;
      const lang = (request.query as { lang?: unknown } | undefined)?.lang;
      return readerOf(
        approvalPageLanguage({
          requested: typeof lang === 'string' ? lang : undefined,
          cartLanguage: row?.cart_language ?? null,
          acceptLanguage: request.headers['accept-language'],
          store: organization ? settingsOf(organization).languages : null,
        }),
      );
    };

    const waiting = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const found = await findWaitingExpressPayment(context.db, request.params.id);
      const row = found?.provider === 'test' ? found : null;
      const reader = await readerFor(request, row);
      if (!row) {
        await gone(reply, reader, 'provider.not_found');
        return null;
      }
      if (effectiveStatus(row, context.clock.now()) !== 'created') {
        await gone(reply, reader, 'provider.already_decided');
        return null;
      }
      return { row, reader };
    };

    scope.get<{ Params: { id: string } }>(`${BASE}/approve/:id`, async (request, reply) => {
      const found = await waiting(request, reply);
      if (!found) return reply;
      const values: Record<string, string> = { ...SAMPLE_PAYER };
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(approvalForm(found.reader, found.row, values, {}));
    });

    scope.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>(
      `${BASE}/approve/:id`,
      async (request, reply) => {
        const found = await waiting(request, reply);
        if (!found) return reply;
        const { row, reader } = found;
        const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
        const now = context.clock.now();
        if (form.decision === 'cancel') {
          await decideTestExpressPayment(context.db, row, { status: 'cancelled' }, now);
          return reply.redirect(expressReturnUrl(context.config.publicUrl, row), 303);
        }
        const { payer, problems } = checkPayer(form);
        if (Object.keys(problems).length > 0) {
          // A card number typed into the form is not written back into it.
          const values = Object.fromEntries(
            PAYER_FIELDS.map((name) => [
              name,
              problems[name]?.key === CARD_NUMBER_IN_FIELD.key ? '' : (form[name] ?? ''),
            ]),
          );
          const said = Object.fromEntries(
            Object.entries(problems).map(([name, message]) => [name, reader.t(message.key, message.values)]),
          );
          return reply
            .code(422)
            .type('text/html; charset=utf-8')
            .send(approvalForm(reader, row, values, said));
        }
        if (!(await decideTestExpressPayment(context.db, row, { status: 'approved', payer }, now))) {
          return gone(reply, reader, 'provider.already_decided');
        }
        return reply.redirect(expressReturnUrl(context.config.publicUrl, row), 303);
      },
    );
  });
}
