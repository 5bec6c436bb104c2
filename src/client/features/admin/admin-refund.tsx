import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { adminRefundInput } from '../../../shared/console.ts';
import { FormMessage } from './form-message.tsx';
import { useFieldErrors } from './use-field-errors.tsx';

/**
 * Admins refund what is left of the payment with a reason, without
 * cancelling: a booking whose document is notarized keeps its act
 * (issue 24, finding 5). The reason goes to the booking's history.
 */
export function AdminRefund({ bookingId, notarized, onRefunded }: { bookingId: string; notarized: boolean; onRefunded: () => Promise<unknown> }) {
  const refund = trpc.console.bookings.refund.useMutation();
  const [open, setOpen] = useState(false);
  const errors = useFieldErrors<'reason'>();
  const reasonId = useId();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = { bookingId, reason: String(new FormData(event.currentTarget).get('reason') ?? '') };
    if (!errors.check(adminRefundInput, input)) return;
    try {
      const result = await refund.mutateAsync(input);
      toast({ title: 'Payment refunded', description: `${formatUsd(result.refundedCents)} refunded.`, variant: 'success' });
      setOpen(false);
      await onRefunded();
    } catch (e) {
      errors.fail(e);
    }
  };

  if (!open) {
    return (
      <>
        {notarized && <p className="mb-3 text-sm text-slate-700">A document of this booking is notarized, so it can no longer be cancelled. The notarized document and the journal entry stay as they are.</p>}
        <Button variant="outline" onClick={() => setOpen(true)}>
          Refund with reason…
        </Button>
      </>
    );
  }
  return (
    <form onSubmit={onSubmit} className="grid gap-3" noValidate>
      <FormMessage message={errors.formError} />
      <div className="grid gap-1.5">
        <Label htmlFor={reasonId}>Reason for the refund (shown in the history)</Label>
        <Textarea id={reasonId} name="reason" required maxLength={500} {...errors.inputProps('reason')} />
        {errors.message('reason')}
      </div>
      <p className="text-sm text-slate-700">What is left of the payment is refunded. The booking is not cancelled{notarized ? ' and the notarial act stands' : ''}.</p>
      <div className="flex gap-2">
        <Button type="submit" disabled={refund.isPending}>
          Refund payment
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)}>
          Keep payment
        </Button>
      </div>
    </form>
  );
}
