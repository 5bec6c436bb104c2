import { useId, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useSearchParams } from '../../lib/router-hooks.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { Loaded } from '../../components/ui/loaded.tsx';
import { Button } from '../../components/ui/button.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { cn } from '../../lib/cn.ts';
import { trpc } from '../../lib/trpc.ts';
import { mailKindLabels, mailStatusLabels, mailStatuses, type MailStatus } from '../../../shared/console.ts';
import { timeIn } from './format.ts';
import { errorMessage } from '../../lib/errors.ts';
import { PageHeading } from './page-heading.tsx';
import { staffZone, useStaff } from './use-staff.tsx';
import { Facts } from '../../components/ui/facts.tsx';

const statusStyles: Record<MailStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  sent: 'bg-green-100 text-green-900',
  failed: 'bg-red-100 text-red-900',
};

function MailStatusBadge({ status }: { status: MailStatus }) {
  return <span className={cn('inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold', statusStyles[status])}>{mailStatusLabels[status]}</span>;
}

const kindLabel = (kind: string) => mailKindLabels[kind] ?? kind.replaceAll('_', ' ');

/** Every email the site has sent or will send: the dev mailbox's list, and the delivery log with SMTP. */
export function MailPage() {
  const { staff } = useStaff();
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = (mailStatuses as readonly string[]).includes(raw ?? '') ? (raw as MailStatus) : 'all';
  const list = trpc.console.mail.list.useQuery({ status }, { refetchInterval: 15_000 });
  const id = useId();
  const zone = staffZone(staff);

  return (
    <>
      <PageHeading title="Mail">
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Show</Label>
          <Select id={id} value={status} onChange={(e) => setParams(e.target.value === 'all' ? {} : { status: e.target.value }, { replace: true })} className="w-48">
            <option value="all">All</option>
            {mailStatuses.map((s) => (
              <option key={s} value={s}>
                {mailStatusLabels[s]}
              </option>
            ))}
          </Select>
        </div>
      </PageHeading>
      <Loaded query={list} what="mail" empty="No messages.">
        {(rows) => (
          <DataTable
            caption={`Outgoing email, newest first, times in ${zone}`}
            columns={[`Created (${zone.replaceAll('_', ' ')})`, 'To', 'Subject', 'Kind', 'Status', 'Attempts', 'Last error', 'Sent']}
          >
            {rows.map((m) => (
              <tr key={m.id}>
                <td className="px-4 py-3">{timeIn(m.createdAt, zone)}</td>
                <td className="px-4 py-3 break-all">{m.to}</td>
                <td className="px-4 py-3">
                  <Link to={`/admin/mail/${m.id}`} className="font-medium text-blue-700 underline-offset-2 hover:underline">
                    {m.subject || '(no subject)'}
                  </Link>
                </td>
                <td className="px-4 py-3">{kindLabel(m.kind)}</td>
                <td className="px-4 py-3">
                  <MailStatusBadge status={m.status} />
                </td>
                <td className="px-4 py-3">{m.attempts}</td>
                <td className="max-w-xs px-4 py-3 break-words text-red-800">{m.lastError ?? ''}</td>
                <td className="px-4 py-3">{m.sentAt ? timeIn(m.sentAt, zone) : '—'}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Loaded>
    </>
  );
}

/**
 * One message. The HTML is shown in a sandboxed frame with no permissions at
 * all (no scripts, no forms, no same-origin access, no top navigation), so
 * whatever a message contains cannot act on the console. Private links were
 * blanked by the server.
 */
export function MailDetailPage() {
  const { messageId = '' } = useParams();
  const { staff } = useStaff();
  const utils = trpc.useUtils();
  // A pending message is about to change (the worker polls every few seconds): follow it.
  const detail = trpc.console.mail.get.useQuery({ messageId }, { retry: false, refetchInterval: (q) => (q.state.data?.status === 'pending' ? 2_000 : false) });
  const retry = trpc.console.mail.retry.useMutation();
  const zone = staffZone(staff);
  const back = (
    <p className="mb-2">
      <Link to="/admin/mail" className="text-sm text-blue-700 underline-offset-2 hover:underline">
        ← All mail
      </Link>
    </p>
  );

  if (detail.isLoading) return <p>Loading message…</p>;
  if (detail.error || !detail.data) {
    return (
      <>
        {back}
        <PageHeading title="Message" />
        <p role="alert" className="text-red-700">
          {detail.error ? errorMessage(detail.error) : 'Message not found'}
        </p>
      </>
    );
  }
  const m = detail.data;

  const onRetry = async () => {
    try {
      await retry.mutateAsync({ messageId });
      toast({ title: 'Queued to send now', description: 'The message goes out within a few seconds.', variant: 'success' });
    } catch (e) {
      toast({ title: 'Could not retry', description: errorMessage(e), variant: 'destructive' });
    }
    await Promise.all([utils.console.mail.get.invalidate({ messageId }), utils.console.mail.list.invalidate()]);
  };

  return (
    <>
      {back}
      <PageHeading title={m.subject || '(no subject)'}>
        <MailStatusBadge status={m.status} />
      </PageHeading>
      <div className="grid gap-6">
        <SectionCard title="Delivery">
          <Facts
            rows={[
              ['To', m.to],
              ...(m.replyTo ? ([['Reply to', m.replyTo]] as [string, ReactNode][]) : []),
              ['Kind', kindLabel(m.kind)],
              ['Status', mailStatusLabels[m.status]],
              ['Attempts', String(m.attempts)],
              ['Created', timeIn(m.createdAt, zone)],
              ['Sent', m.sentAt ? timeIn(m.sentAt, zone) : 'Not yet'],
              ...(m.status === 'pending' && m.attempts > 0 ? ([['Next attempt', timeIn(m.nextAttemptAt, zone)]] as [string, ReactNode][]) : []),
              ...(m.lastError ? ([['Last error', <span className="text-red-800">{m.lastError}</span>]] as [string, ReactNode][]) : []),
              ...(m.attachments.length
                ? ([['Attachments', m.attachments.map((a) => `${a.filename} (${a.contentType.split(';')[0]})`).join(', ')]] as [string, ReactNode][])
                : []),
            ]}
          />
          {m.retryable && (m.status === 'failed' || m.attempts > 0) && (
            <Button className="mt-4" size="sm" onClick={onRetry} disabled={retry.isPending}>
              {retry.isPending ? 'Retrying…' : 'Retry now'}
            </Button>
          )}
        </SectionCard>
        <SectionCard title="Message" contentClassName="grid gap-4">
          <iframe
            title={`Email preview: ${m.subject}`}
            sandbox=""
            srcDoc={m.html}
            referrerPolicy="no-referrer"
            className="h-[36rem] w-full rounded-md border border-slate-200 bg-white"
          />
          <details>
            <summary className="cursor-pointer text-sm font-medium text-blue-700">Plain-text version</summary>
            <pre className="mt-2 overflow-x-auto whitespace-pre-wrap rounded-md bg-slate-50 p-4 text-sm text-slate-900">{m.text}</pre>
          </details>
        </SectionCard>
      </div>
    </>
  );
}
