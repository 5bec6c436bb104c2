import { Link } from 'react-router-dom';
import { formatPostDate, type LegalDocument } from '../../../shared/blog.ts';
import { Prose } from './prose.tsx';

/** One layout for every legal text: title, last-updated date, sections. */
export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <main id="main" className="bg-white">
      <div className="border-b border-slate-200 bg-slate-50">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
          <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
            <Link to="/" className="underline underline-offset-4 hover:text-slate-900">
              Home
            </Link>{' '}
            / <span aria-current="page">{document.title}</span>
          </nav>
          <h1 className="mt-4 text-4xl font-bold tracking-tight text-slate-900">{document.title}</h1>
          <p className="mt-3 text-slate-600">
            Last updated: <time dateTime={document.updated}>{formatPostDate(document.updated)}</time>
          </p>
        </div>
      </div>
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <Prose html={document.html} className="text-base leading-7" />
      </article>
    </main>
  );
}
