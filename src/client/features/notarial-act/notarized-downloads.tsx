import { Download, FileCheck2 } from 'lucide-react';
import { actLabels } from '../../../shared/notarial-act.ts';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { trpc } from '../../lib/trpc.ts';

/** The sealed PDFs, once the notary has sealed them: "Download notarized document". */
export function NotarizedDownloads({ token }: { token: string }) {
  const query = trpc.manageAct.get.useQuery({ token }, { retry: false });
  const sealed = query.data?.documents.filter((d) => d.sealed) ?? [];
  if (sealed.length === 0) return null;
  return (
    <SectionCard title="Your notarized documents" intro="Signed and sealed by your notary. Any PDF reader shows the notary’s digital signature; a change to the file would show it as invalid.">
      <ul className="grid gap-2">
        {sealed.map((doc) => (
          <li key={doc.documentId} className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-green-300 bg-green-50 px-3 py-2">
            <span className="flex min-w-0 items-center gap-2">
              <FileCheck2 className="h-4 w-4 shrink-0 text-green-800" aria-hidden="true" />
              <span className="truncate text-slate-900">{doc.notarizedName ?? doc.name}</span>
            </span>
            <a
              className="inline-flex items-center gap-1 rounded-md bg-blue-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-800"
              href={`/api/manage/notarized/${doc.documentId}?token=${encodeURIComponent(token)}`}
              download
              aria-describedby={`sealed-${doc.documentId}`}
            >
              <Download className="h-4 w-4" aria-hidden="true" />
              {actLabels.downloadNotarized}
            </a>
            <span id={`sealed-${doc.documentId}`} className="sr-only">
              {doc.notarizedName ?? doc.name}
            </span>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
