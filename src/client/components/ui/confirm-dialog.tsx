import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';

/**
 * Asks before an irreversible step, saying exactly what will happen (the
 * refund policy is read before the customer confirms; the person and the
 * change before an admin applies it). Radix: focus trapped,
 * Escape closes, the title and description are announced.
 */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** The way out without changing anything; the customer's pages say 'Keep my appointment'. */
  cancelLabel?: string;
  busyLabel: string;
  busy: boolean;
  destructive?: boolean;
  onConfirm: () => void;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={(open) => !props.busy && props.onOpenChange(open)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[100] bg-slate-950/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-[101] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{props.title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-3 grid gap-2 text-slate-700">{props.description}</div>
          </Dialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Dialog.Close asChild>
              <Button variant="outline" disabled={props.busy}>
                {props.cancelLabel ?? 'Keep my appointment'}
              </Button>
            </Dialog.Close>
            <Button variant={props.destructive ? 'destructive' : 'default'} disabled={props.busy} onClick={props.onConfirm}>
              {props.busy ? props.busyLabel : props.confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
