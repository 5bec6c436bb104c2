import { useId } from 'react';
import { useSearchParams } from '../../lib/router-hooks.tsx';
import { Loaded } from '../../components/ui/loaded.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { messageKindLabels } from '../../../shared/console.ts';
import { timeIn } from './format.ts';
import { errorMessage } from '../../lib/errors.ts';
import { PageHeading } from './page-heading.tsx';
import { staffZone, useStaff } from './use-staff.tsx';

/** Contact, business and offline-chat messages; each is marked handled once answered. */
export function MessagesPage() {
  const { staff } = useStaff();
  const [params, setParams] = useSearchParams();
  const show = (params.get('show') ?? 'open') as 'open' | 'handled' | 'all';
  const utils = trpc.useUtils();
  const list = trpc.console.messages.list.useQuery({ show });
  const handled = trpc.console.messages.markHandled.useMutation();
  const id = useId();
  const zone = staffZone(staff);

  const onHandled = async (messageId: string) => {
    try {
      await handled.mutateAsync({ messageId });
      toast({ title: 'Marked handled', variant: 'success' });
      await utils.console.messages.list.invalidate();
    } catch (e) {
      toast({ title: 'Could not update', description: errorMessage(e), variant: 'destructive' });
    }
  };

  return (
    <>
      <PageHeading title="Messages">
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Show</Label>
          <Select id={id} value={show} onChange={(e) => setParams(e.target.value === 'open' ? {} : { show: e.target.value }, { replace: true })} className="w-48">
            <option value="open">Open</option>
            <option value="handled">Handled</option>
            <option value="all">All</option>
          </Select>
        </div>
      </PageHeading>
      <Loaded query={list} what="messages" empty={show === 'open' ? 'No open messages.' : 'No messages.'}>
        {(rows) => (
          <ul className="grid gap-4">
            {rows.map((m) => (
              <li key={m.id}>
                <article aria-labelledby={`msg-${m.id}`} className="rounded-xl border border-slate-200 bg-white p-5">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div>
                      <h2 id={`msg-${m.id}`} className="font-semibold text-slate-900">
                        {m.name} <span className="font-normal text-slate-700">· {messageKindLabels[m.kind]}</span>
                      </h2>
                      <p className="text-sm text-slate-700">
                        <a href={`mailto:${m.email}`} className="text-blue-700 underline">
                          {m.email}
                        </a>
                        {m.phone && <> · {m.phone}</>}
                        {m.company && <> · {m.company}</>}
                        {m.interest && <> · {m.interest}</>}
                      </p>
                      <p className="text-sm text-slate-600">{timeIn(m.createdAt, zone)}</p>
                    </div>
                    {m.handledAt ? (
                      <p className="text-sm text-green-800">Handled{m.handledBy ? ` by ${m.handledBy}` : ''}</p>
                    ) : (
                      <Button size="sm" variant="outline" onClick={() => onHandled(m.id)} disabled={handled.isPending}>
                        Mark handled<span className="sr-only"> (message from {m.name})</span>
                      </Button>
                    )}
                  </div>
                  <p className="mt-3 whitespace-pre-wrap text-slate-900">{m.message}</p>
                </article>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </>
  );
}
