import type { FastifyInstance, FastifyReply } from 'fastify';
import { CARD_NUMBER_IN_TEXT_MESSAGE } from '../../../domain/card.js';
import { subdivisionsOf } from '../../../domain/address/address-data.js';
import { COUNTRY_CODES } from '../../../domain/countries.js';
import { formatMoney, minor } from '../../../domain/money.js';
import type { AppContext } from '../../platform/context.js';
import type { ExpressPayer } from '../../platform/payments/gateway.js';
import type { ExpressPaymentRow } from './express-payments-repository.js';
import {
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

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f7fb;color:#1f2937}
main{max-width:32rem;margin:2rem auto;background:#fff;border-radius:4px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.5rem;margin:0 0 .25rem}.badge{display:inline-block;background:#ffc439;color:#14213d;font-weight:700;
padding:.1rem .5rem;border-radius:4px}.amount{font-size:1.25rem;font-weight:600}label{display:block;font-weight:500;margin:.75rem 0 .25rem}
input,select{width:100%;box-sizing:border-box;font:inherit;padding:.55rem;border:1px solid #6b7280;border-radius:4px}
.error{color:#b91c1c;margin:.25rem 0 0}.actions{display:flex;gap:.75rem;margin-top:1.5rem;flex-wrap:wrap}
button{font:inherit;font-weight:600;padding:.7rem 1.75rem;border-radius:4px;border:2px solid #14213d;cursor:pointer}
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

const LABELS: Record<(typeof PAYER_FIELDS)[number], [string, string]> = {
  email: ['Email', 'email'],
  fname: ['First name', 'given-name'],
  lname: ['Last name', 'family-name'],
  ship_address1: ['Address', 'address-line1'],
  ship_address2: ['Apartment, suite (optional)', 'address-line2'],
  ship_city: ['City', 'address-level2'],
  ship_state: ['State', 'address-level1'],
  ship_zipcode: ['ZIP or postal code', 'postal-code'],
  ship_country: ['Country', 'country'],
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${BASE}/style.css"></head><body><main>${body}</main></body></html>`;
}

function approvalForm(
  row: ExpressPaymentRow,
  values: Record<string, string>,
  problems: Record<string, string>,
): string {
  const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
  const field = (name: (typeof PAYER_FIELDS)[number]) => {
    const [label, autocomplete] = LABELS[name];
    const id = `payer-${name}`;
    const error = problems[name];
    const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
    const value = values[name] ?? '';
    let control: string;
    if (name === 'ship_country') {
      control = `<select id="${id}" name="${name}" autocomplete="${autocomplete}"${described}>${COUNTRY_CODES.map(
        (code) =>
          `<option value="${code}"${code === value ? ' selected' : ''}>${escapeHtml(regionNames.of(code) ?? code)}</option>`,
      ).join('')}</select>`;
    } else if (name === 'ship_state' && subdivisionsOf(values.ship_country ?? '').length > 0) {
      control = `<select id="${id}" name="${name}" autocomplete="${autocomplete}"${described}><option value="">Choose…</option>${subdivisionsOf(
        values.ship_country ?? '',
      )
        .map(
          (s) =>
            `<option value="${s.code}"${s.code === value ? ' selected' : ''}>${escapeHtml(s.name)}</option>`,
        )
        .join('')}</select>`;
    } else {
      control = `<input id="${id}" name="${name}" type="${name === 'email' ? 'email' : 'text'}" autocomplete="${autocomplete}" value="${escapeHtml(value)}"${described}>`;
    }
    return `<label for="${id}">${label}</label>${control}${error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ''}`;
  };
  return page(
    'Approve your payment',
    `<p><span class="badge">PayPal-style test provider</span></p><h1>Approve your payment</h1>
<p class="amount">${escapeHtml(formatMoney(minor(row.amount), row.currency))}</p>
<p>This page stands in for the payment provider. Choose the email and shipping address to return to the checkout with.</p>
${Object.keys(problems).length > 0 ? '<p class="error" role="alert">Check the highlighted fields.</p>' : ''}
<form method="post" action="${BASE}/approve/${encodeURIComponent(row.public_id)}" novalidate>
${PAYER_FIELDS.map(field).join('\n')}
<div class="actions"><button class="approve" type="submit" name="decision" value="approve">Approve and continue</button>
<button class="cancel" type="submit" name="decision" value="cancel">Cancel and return</button></div></form>`,
  );
}

function gone(reply: FastifyReply, message: string) {
  return reply
    .code(410)
    .type('text/html; charset=utf-8')
    .send(page('Payment unavailable', `<h1>Payment unavailable</h1><p>${escapeHtml(message)}</p>`));
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

    const waiting = async (id: string, reply: FastifyReply) => {
      const row = await findWaitingExpressPayment(context.db, id);
      if (!row || row.provider !== 'test') {
        await gone(reply, 'This payment does not exist.');
        return null;
      }
      if (effectiveStatus(row, context.clock.now()) !== 'created') {
        await gone(
          reply,
          'This payment was already approved, canceled or has expired. Go back to the checkout.',
        );
        return null;
      }
      return row;
    };

    scope.get<{ Params: { id: string } }>(`${BASE}/approve/:id`, async (request, reply) => {
      const row = await waiting(request.params.id, reply);
      if (!row) return reply;
      const values: Record<string, string> = { ...SAMPLE_PAYER };
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(approvalForm(row, values, {}));
    });

    scope.post<{ Params: { id: string }; Body: Record<string, string> | undefined }>(
      `${BASE}/approve/:id`,
      async (request, reply) => {
        const row = await waiting(request.params.id, reply);
        if (!row) return reply;
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
              problems[name] === CARD_NUMBER_IN_TEXT_MESSAGE ? '' : (form[name] ?? ''),
            ]),
          );
          return reply
            .code(422)
            .type('text/html; charset=utf-8')
            .send(approvalForm(row, values, problems));
        }
        if (!(await decideTestExpressPayment(context.db, row, { status: 'approved', payer }, now))) {
          return gone(
            reply,
            'This payment was already approved, canceled or has expired. Go back to the checkout.',
          );
        }
        return reply.redirect(expressReturnUrl(context.config.publicUrl, row), 303);
      },
    );
  });
}
