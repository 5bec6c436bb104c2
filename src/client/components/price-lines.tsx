import { Fragment } from 'react';
import type { PriceLine } from '../../shared/pricing.ts';
import { formatUsd } from '../../shared/money.ts';

/**
 * A price line by line (docs/product.md §4.6): the session, then one line per
 * co-signer whose fee is above zero. Shown only when there is more than one line.
 */
export function PriceLines({ lines, className }: { lines: readonly PriceLine[]; className?: string }) {
  if (lines.length < 2) return null;
  return (
    <dl className={`grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm ${className ?? ''}`} data-testid="price-lines">
      {lines.map((line) => (
        <div key={line.label} className="contents">
          <dt className="text-slate-700">{line.label}</dt>
          <dd className="text-right text-slate-900">{formatUsd(line.cents)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The same lines as rows of a receipt's own `<dl>` (the confirmation, the booking
 * page), each term in `termClassName`; nothing when there is one line.
 */
export function PriceLineRows({ lines, termClassName }: { lines: readonly PriceLine[]; termClassName: string }) {
  if (lines.length < 2) return null;
  return lines.map((line) => (
    <Fragment key={line.label}>
      <dt className={termClassName}>{line.label}</dt>
      <dd className="text-slate-900">{formatUsd(line.cents)}</dd>
    </Fragment>
  ));
}
