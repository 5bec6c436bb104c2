import { CheckCircle2 } from 'lucide-react';
import type { Ref } from 'react';

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
