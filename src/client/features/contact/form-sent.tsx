import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState, type Ref } from 'react';
import type { PostedOutcome } from './posted-outcome.tsx';

/**
 * A contact-style form's sending state: 'sent' already when the browser posted it before the
 * script ran (`posted`), and focus on the confirmation once it shows.
 */
export function useSendState(posted: PostedOutcome | null) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>(posted === 'sent' ? 'sent' : 'idle');
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state === 'sent') confirmation.current?.focus();
  }, [state]);
  return { state, setState, confirmation };
}

/** What a contact-style form shows once it is sent; focus moves to it (`ref`), and it is announced. */
export function FormSent({ ref, title, description }: { ref: Ref<HTMLDivElement>; title: string; description: string }) {
  return (
    <div ref={ref} tabIndex={-1} role="status" className="flex items-start gap-3 rounded-xl border border-green-300 bg-green-50 p-6 text-green-950 outline-none">
      <CheckCircle2 className="mt-0.5 h-6 w-6 shrink-0 text-green-700" aria-hidden="true" />
      <div>
        <p className="text-lg font-semibold">{title}</p>
        <p className="mt-1">{description}</p>
      </div>
    </div>
  );
}
