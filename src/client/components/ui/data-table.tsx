import type { ReactNode } from 'react';

/**
 * A console table: it scrolls sideways inside its own frame and never widens
 * the page (`relative`: screen-reader-only text in the rows is positioned, so
 * it must scroll with the table). The caption is for screen readers unless
 * `captionVisible`, which titles the table in its frame (then without a shaded header row).
 */
export function DataTable({
  caption,
  captionVisible = false,
  columns,
  children,
}: {
  caption: ReactNode;
  captionVisible?: boolean;
  columns: ReactNode[];
  children: ReactNode;
}) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className={captionVisible ? 'px-4 pt-4 text-left text-lg font-semibold text-slate-900' : 'sr-only'}>{caption}</caption>
        <thead className={captionVisible ? 'text-slate-700' : 'bg-slate-50 text-slate-700'}>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className="px-4 py-3 font-semibold">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">{children}</tbody>
      </table>
    </div>
  );
}
