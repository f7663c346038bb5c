// Refunding an order from its screen (docs/dashboard.md, "Orders"; docs/api.md, "Refunds"): all that is left or
// part of it, confirmed in the page before it is sent with its Idempotency-Key; the server's refusals by the field.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { OrderDetail } from '../../../contract/merchant.js';
import { RefundSchema, type Refund } from '../../../contract/refund.js';
import { Button } from '../../ui/button.js';
import { ErrorSummary } from '../../ui/error-summary.js';
import { focusField } from '../../ui/field-ids.js';
import { useAnnounce } from '../../ui/live-region.js';
import { RadioGroup } from '../../ui/radio-group.js';
import { TextField } from '../../ui/text-field.js';
import { ApiFailure, request } from '../admin-api.js';
import { auditKey } from '../kit/audit-trail.js';
import { failureOf, summaryOf } from '../kit/form-failure.js';
import { formatMoney } from '../kit/format.js';
import { orderDeliveriesKey, orderEmailsKey, orderKey } from './order-queries.js';
import {
  leftToRefund,
  newRefundKey,
  paidAttempt,
  parseAmount,
  refundDestination,
  refundKeyFor,
  type SentRefund,
} from './refund-rules.js';

const FIELD_ORDER = ['amount', 'reason'] as const;

interface Planned {
  body: { amount?: number; reason?: string };
  /** what the confirmation and the button say */
  amount: number;
}

function outcomeOf(refund: Refund, money: (amount: number) => string, to: string): string {
  if (refund.status === 'succeeded') return `Refunded ${money(refund.amount)} to ${to}.`;
  if (refund.status === 'pending')
    return `The refund of ${money(refund.amount)} is pending: the processor has not confirmed it yet.`;
  return `The refund of ${money(refund.amount)} failed${refund.error ? `: ${refund.error}` : '.'}`;
}

export function RefundSection({ order }: { order: OrderDetail }) {
  const client = useQueryClient();
  const announce = useAnnounce();
  const money = (amount: number) => formatMoney(amount, order.currency);
  const left = leftToRefund(order);
  const to = refundDestination(order);
  const [how, setHow] = useState<'all' | 'part'>('all');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const [planned, setPlanned] = useState<Planned | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const sent = useRef<(SentRefund & { failedStatus: number | null }) | null>(null);
  const confirmRef = useRef<HTMLParagraphElement>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const errorsRef = useRef<HTMLDivElement>(null);

  const refund = useMutation({
    mutationFn: async (plan: Planned) => {
      const body = JSON.stringify(plan.body);
      const key = refundKeyFor(sent.current, body, newRefundKey);
      sent.current = { body, key, failedStatus: null };
      try {
        return await request(
          RefundSchema,
          'POST',
          `/checkout/api/merchant/orders/${order.order_id}/refunds`,
          plan.body,
          { 'idempotency-key': key },
        );
      } catch (error) {
        sent.current = { body, key, failedStatus: error instanceof ApiFailure ? error.status : 0 };
        throw error;
      }
    },
    onSuccess: async (answer) => {
      sent.current = null;
      const said = outcomeOf(answer, money, to);
      setPlanned(null);
      setAmountText('');
      setReason('');
      setHow('all');
      setOutcome(said);
      announce(said);
      await Promise.all([
        client.invalidateQueries({ queryKey: orderKey(order.order_id) }),
        client.invalidateQueries({ queryKey: orderEmailsKey(order.order_id) }),
        client.invalidateQueries({ queryKey: orderDeliveriesKey(order.order_id) }),
        client.invalidateQueries({ queryKey: auditKey('order', order.order_id) }),
        client.invalidateQueries({ queryKey: ['orders', 'list'] }),
      ]);
      // The refund's email and webhooks are written by jobs just after it: look once more when they have run.
      window.setTimeout(() => {
        void client.invalidateQueries({ queryKey: orderEmailsKey(order.order_id) });
        void client.invalidateQueries({ queryKey: orderDeliveriesKey(order.order_id) });
      }, 5_000);
    },
    onError: (error) => {
      setPlanned(null);
      setRefused({ amount: Boolean(failureOf(error).fields.amount) });
    },
  });

  // Focus where the refusal is explained, once it is rendered: the amount it names, else the summary of what went
  // wrong.
  const [refused, setRefused] = useState<{ amount: boolean } | null>(null);
  useEffect(() => {
    if (!refused) return;
    if (!(refused.amount && how === 'part' && focusField('amount'))) errorsRef.current?.focus();
    // Once per refusal, in the render that shows it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refused]);

  useEffect(() => {
    if (planned) confirmRef.current?.focus();
  }, [planned]);
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const failure = failureOf(refund.error);
  const fields: Record<string, string> = { ...failure.fields, ...(localError ? { amount: localError } : {}) };

  const pending = order.refunds.filter((candidate) => candidate.status === 'pending');
  const offered = order.status === 'complete' && paidAttempt(order) !== null && left > 0;

  const review = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    refund.reset();
    const trimmedReason = reason.trim();
    const withReason = trimmedReason ? { reason: trimmedReason } : {};
    if (how === 'all') {
      setLocalError(null);
      setPlanned({ body: withReason, amount: left });
      return;
    }
    const amount = parseAmount(amountText);
    if (amount === null) {
      setLocalError('Enter the amount to refund, such as 25.00.');
      requestAnimationFrame(() => focusField('amount'));
      return;
    }
    setLocalError(null);
    setPlanned({ body: { amount, ...withReason }, amount });
  };

  return (
    <section className="admin-card" aria-labelledby="order-refund-heading">
      <h2 id="order-refund-heading">Refund</h2>
      {outcome ? (
        <p className="orders-outcome" ref={outcomeRef} tabIndex={-1}>
          {outcome}
        </p>
      ) : null}
      {pending.map((candidate) => (
        <p key={candidate.id}>
          A refund of {money(candidate.amount)} is pending: the processor has not confirmed it yet. A new
          refund settles it first.
        </p>
      ))}
      {!offered ? (
        <p>
          {order.status !== 'complete'
            ? 'Only a completed order can be refunded.'
            : paidAttempt(order) === null
              ? 'Nothing was charged for this order, so there is nothing to refund.'
              : 'This order is refunded in full: nothing is left to refund.'}
        </p>
      ) : planned ? (
        <div className="orders-confirm" role="group" aria-labelledby="refund-confirm-question">
          <p id="refund-confirm-question" ref={confirmRef} tabIndex={-1}>
            Refund {money(planned.amount)} of {money(left)} to {to}?
          </p>
          {planned.body.reason ? <p>Reason: {planned.body.reason}</p> : null}
          <div className="admin-actions">
            <Button onClick={() => refund.mutate(planned)} disabled={refund.isPending}>
              {refund.isPending ? 'Refunding…' : `Yes, refund ${money(planned.amount)}`}
            </Button>
            <Button
              variant="secondary"
              disabled={refund.isPending}
              onClick={() => {
                setPlanned(null);
                requestAnimationFrame(() => focusField(how === 'part' ? 'amount' : 'refund-how'));
              }}
            >
              Go back
            </Button>
          </div>
        </div>
      ) : (
        <form className="admin-form" onSubmit={review} noValidate>
          <p>
            {money(left)} is left to refund to {to}.
          </p>
          <div ref={errorsRef} tabIndex={-1} className="orders-errors">
            <ErrorSummary errors={summaryOf(fields, FIELD_ORDER)} message={failure.message} />
          </div>
          <RadioGroup
            name="refund-how"
            legend="How much"
            value={how}
            onChange={(value) => setHow(value === 'part' ? 'part' : 'all')}
            choices={[
              { value: 'all', label: `All that is left (${money(left)})` },
              { value: 'part', label: 'Part of it' },
            ]}
          />
          {how === 'part' ? (
            <TextField
              name="amount"
              label={`Amount to refund (${order.currency})`}
              inputMode="decimal"
              autoComplete="off"
              value={amountText}
              onChange={setAmountText}
              error={fields.amount}
            />
          ) : null}
          <TextField
            name="reason"
            label="Reason"
            autoComplete="off"
            required={false}
            maxLength={500}
            value={reason}
            onChange={setReason}
            error={fields.reason}
            hint="Kept with the refund; the shopper does not see it."
          />
          <div className="admin-actions">
            <Button type="submit">Refund…</Button>
          </div>
        </form>
      )}
    </section>
  );
}
