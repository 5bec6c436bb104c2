import { CheckCircle2, Clock } from 'lucide-react';
import { formatUsd } from '../../../shared/money.ts';
import { detectTimeZone, formatInZone } from '../../../shared/time.ts';
import { receiptMethodLabel, receiptStatus, type PaymentReceipt as Receipt } from '../../../shared/payments.ts';
import { cn } from '../../lib/cn.ts';

const toneClass = {
  success: 'bg-green-100 text-green-800',
  pending: 'bg-yellow-100 text-yellow-900',
  failure: 'bg-red-100 text-red-800',
} as const;

/** The receipt view inside the payment step (docs/product.md §4.7). */
export function PaymentReceiptView({ receipt, headingRef }: { receipt: Receipt; headingRef?: React.Ref<HTMLHeadingElement> }) {
  const status = receiptStatus(receipt);
  const pending = status.tone === 'pending';
  const rows: [string, string][] = [
    ['Payment ID', receipt.providerPaymentId],
    // The spec's fields (amount, currency, date, method), written as a person reads them.
    ['Amount', `${formatUsd(receipt.amountCents)} ${receipt.currency.toUpperCase()}`],
    ['Currency', receipt.currency.toUpperCase()],
    // The receipt only ever renders in the browser (the payment step is not server-rendered): the visitor's zone, named.
    ['Date', formatInZone(receipt.createdAt, detectTimeZone()).full],
    ['Payment Method', receiptMethodLabel(receipt.method)],
  ];
  return (
    <section className="grid gap-4 rounded-xl border border-slate-200 bg-white p-6" aria-labelledby="payment-receipt-heading" data-testid="payment-receipt">
      <div className="flex items-center gap-3">
        {pending ? (
          <Clock className="h-7 w-7 text-yellow-700" aria-hidden="true" />
        ) : (
          <CheckCircle2 className="h-7 w-7 text-green-700" aria-hidden="true" />
        )}
        <h3 id="payment-receipt-heading" ref={headingRef} tabIndex={-1} className="text-xl font-bold text-slate-900">
          {pending ? 'Payment Pending' : 'Payment Receipt'}
        </h3>
      </div>
      {pending && (
        <p className="text-slate-700" role="status">
          Your payment is being processed. We will confirm your appointment as soon as it completes; you can keep this page open.
        </p>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="break-all text-slate-900">{value}</dd>
          </div>
        ))}
        <dt className="font-medium text-slate-600">Status</dt>
        <dd>
          <span className={cn('rounded-full px-2.5 py-0.5 text-sm font-semibold', toneClass[status.tone])} data-testid="receipt-status">
            {status.label}
          </span>
        </dd>
      </dl>
    </section>
  );
}
