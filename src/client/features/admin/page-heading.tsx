import { useEffect, type ReactNode } from 'react';
import { setConsolePageTitle } from './console-title.ts';

/** The page's h1 and the document title (the console is not indexed; titles help screen readers and tabs). */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    setConsolePageTitle(`${title} | NotaryOnline Staff`);
  }, [title]);
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <h1 className="min-w-0 break-words text-2xl font-bold text-slate-900">{title}</h1>
      {children}
    </div>
  );
}
