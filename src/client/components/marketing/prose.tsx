import { cx } from '../../lib/cx.ts';

/**
 * Typography for HTML rendered at build time from our own Markdown
 * (content/), so it is trusted and inserted as is.
 */
export function Prose({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={cx(
        'max-w-none text-lg leading-8 text-slate-700',
        '[&_h2]:mt-12 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-slate-900',
        '[&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_h3]:text-slate-900',
        '[&_p]:mt-5 [&_ul]:mt-5 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:mt-5 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
        '[&_a]:font-medium [&_a]:text-blue-700 [&_a]:underline [&_a]:underline-offset-4 hover:[&_a]:text-blue-800',
        '[&_strong]:font-semibold [&_strong]:text-slate-900 [&_li]:pl-1',
        '[&>*:first-child]:mt-0',
        className,
      )}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
