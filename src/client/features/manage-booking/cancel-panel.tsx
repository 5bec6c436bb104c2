import { useId, useState } from 'react';
import { manageMessages, type ManageBookingView } from '../../../shared/manage-booking.ts';
import { formatUsd } from '../../../shared/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { errorMessage } from '../../lib/errors.ts';

/** Cancel, with what happens to the payment stated before the customer confirms. */
export function CancelPanel({ token, booking, onChanged }: { token: string; booking: ManageBookingView; onChanged: (view: ManageBookingView) => void }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const outcome = booking.refundOnCancelCents > 0 ? manageMessages.refundOnCancel(booking.refundOnCancelCents) : manageMessages.noRefundOnCancel;
  const cancel = trpc.manageBooking.cancel.useMutation({
    onSuccess(view) {
      setConfirming(false);
      onChanged(view);
      const refunded = view.payment?.refundedCents ?? 0;
      toast({
        title: manageMessages.cancelled,
        description: refunded > 0 ? `A refund of ${formatUsd(refunded)} is on its way to your original payment method.` : 'No refund was issued.',
        variant: 'success',
      });
    },
    onError(error) {
      setConfirming(false);
      toast({ title: 'Could not cancel your appointment', description: errorMessage(error), variant: 'destructive' });
    },
  });

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3">
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        Cancel
      </h3>
      <p className="text-slate-700">{outcome}</p>
      <div>
        <Button type="button" variant="destructive" onClick={() => setConfirming(true)}>
          Cancel appointment
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Cancel your appointment?"
        description={
          <>
            <p>{outcome}</p>
            <p>This cannot be undone; you can always book a new appointment.</p>
          </>
        }
        confirmLabel={booking.refundOnCancelCents > 0 ? 'Cancel and refund' : 'Cancel without refund'}
        busyLabel="Cancelling..."
        busy={cancel.isPending}
        destructive
        onConfirm={() => cancel.mutate({ token })}
      />
    </section>
  );
}
