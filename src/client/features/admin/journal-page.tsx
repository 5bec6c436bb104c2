import { useId, useState } from 'react';
import { Download } from 'lucide-react';
import { actTypeLabels, type ActType } from '../../../shared/notarial-act.ts';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { CommissionForm } from '../notarial-act/commission-form.tsx';
import { timeIn } from './format.ts';
import { PageHeading } from './page-heading.tsx';
import { useStaff } from './use-staff.tsx';
import { errorMessage } from '../../lib/errors.ts';

/**
 * The notary journal: a notary sees their own entries, an admin everyone's;
 * exported for a date range as CSV or PDF. Entries are never edited here (a
 * correction is a new entry), and the chain is checked by `npm run journal:verify`.
 */
export function JournalPage() {
  const { staff } = useStaff();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const ids = { from: useId(), to: useId() };
  const range = { from: from || undefined, to: to || undefined };
  const list = trpc.act.journal.useQuery(range);
  const zone = staff?.user.timeZone ?? 'America/Chicago';
  const query = new URLSearchParams(Object.entries(range).filter((e): e is [string, string] => !!e[1])).toString();
  return (
    <>
      <PageHeading title="Journal">
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor={ids.from}>From</Label>
            <Input id={ids.from} type="date" value={from} onChange={(e) => setFrom(e.target.value)} className="w-44" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.to}>To</Label>
            <Input id={ids.to} type="date" value={to} onChange={(e) => setTo(e.target.value)} className="w-44" />
          </div>
          {(['csv', 'pdf'] as const).map((format) => (
            <a key={format} href={`/api/staff/journal.${format}${query ? `?${query}` : ''}`} download className="inline-flex h-11 items-center gap-1 rounded-md border border-slate-400 px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50">
              <Download className="h-4 w-4" aria-hidden="true" /> Export {format.toUpperCase()}
            </a>
          ))}
        </div>
      </PageHeading>
      {staff?.user.role === 'notary' && (
        <section aria-label="Commission" className="mb-6 max-w-2xl">
          <CommissionForm />
        </section>
      )}
      {list.error && <p role="alert" className="text-red-700">{errorMessage(list.error)}</p>}
      {list.data && list.data.length === 0 && <p className="text-slate-700">No journal entries in this period.</p>}
      {list.data && list.data.length > 0 && (
        // Wider than a phone: the scrolling region takes focus, so a keyboard can scroll it (axe: scrollable-region-focusable).
        <div className="overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700" tabIndex={0} role="region" aria-label="Journal entries">
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">Journal entries</caption>
            <thead>
              <tr className="border-b border-slate-300 text-left text-slate-700">
                {['#', 'Date and time', 'Act', 'Document', 'Signer', 'Identity', 'Fee', 'Sealed SHA-256', 'Notary'].map((h) => (
                  <th key={h} scope="col" className="px-2 py-2 font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.data.map((entry) => {
                const d = entry.data as { actType?: ActType; documentTitle?: string; pageCount?: number; signerName?: string; identity?: { provider?: string; idType?: string; issuingState?: string }; feeCents?: number; sealedSha256?: string; note?: string };
                return (
                  <tr key={entry.seq} className="border-b border-slate-200 align-top">
                    <td className="px-2 py-2 font-mono">{entry.seq}</td>
                    <td className="px-2 py-2">{timeIn(entry.performedAt, zone)}</td>
                    <td className="px-2 py-2">{entry.kind === 'correction' ? `Correction of #${entry.correctsSeq}: ${d.note ?? ''}` : d.actType ? actTypeLabels[d.actType] : ''}</td>
                    <td className="px-2 py-2">
                      {d.documentTitle} {d.pageCount ? `(${d.pageCount} pages)` : ''}
                    </td>
                    <td className="px-2 py-2">{d.signerName}</td>
                    <td className="px-2 py-2">{d.identity ? `${d.identity.provider}, ${d.identity.idType ?? ''} ${d.identity.issuingState ?? ''}` : ''}</td>
                    <td className="px-2 py-2">{typeof d.feeCents === 'number' ? `$${(d.feeCents / 100).toFixed(2)}` : ''}</td>
                    <td className="max-w-40 break-all px-2 py-2 font-mono text-xs">{d.sealedSha256}</td>
                    <td className="px-2 py-2">{entry.notaryName}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
