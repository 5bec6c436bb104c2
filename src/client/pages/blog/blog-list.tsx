import { useEffect, useRef } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { posts } from 'virtual:blog-index';
import { blogCategories, blogPageCount, blogPageSize, formatPostDate } from '../../../shared/blog.ts';
import { BlogCover } from '../../components/marketing/blog-cover.tsx';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { cx } from '../../lib/cx.ts';
import type { RouteHandle } from '../../lib/meta.ts';

const pageCount = blogPageCount(posts.length);

/** `/blog?page=N`: page links work without JavaScript and can be crawled; anything else is a 404. */
export function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get('page');
  const page = raw === null ? 1 : Number(raw);
  if (!Number.isInteger(page) || page < 1 || page > pageCount) throw new Response(null, { status: 404, statusText: 'Not Found' });
  return { page };
}

export const handle: RouteHandle = {
  meta: ({ data }: { data: { page: number } | undefined }) => {
    const page = data?.page ?? 1;
    return {
      title: page > 1 ? `Blog, page ${page}` : 'Blog: Notarization Guides and Legal Tips',
      description:
        'Practical guides to remote online notarization, electronic signatures, identity verification and keeping documents secure, from the NotaryOnline team.',
      path: page > 1 ? `/blog?page=${page}` : '/blog',
    };
  },
};

const pageHref = (page: number) => (page === 1 ? '/blog' : `/blog?page=${page}`);

export function Component() {
  const { page } = useLoaderData<typeof loader>();
  const visible = posts.slice((page - 1) * blogPageSize, page * blogPageSize);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // After "Load More" or a page number, bring the new list into view and put focus at its start.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [page]);

  return (
    <main id="main">
      <section className="bg-gradient-to-br from-blue-900 via-blue-800 to-blue-700 text-white">
        <div className="mx-auto max-w-7xl px-4 py-16 text-center sm:px-6 md:py-20 lg:px-8">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">NotaryOnline Blog</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-blue-50">
            Guides, legal basics and news about remote notarization, electronic signatures and document security.
          </p>
          <ul aria-label="Topics we write about" className="mt-8 flex flex-wrap justify-center gap-2">
            {blogCategories.map((category) => (
              <li key={category} className="rounded-full bg-white/10 px-4 py-1.5 text-sm font-medium text-white ring-1 ring-white/30">
                {category}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="articles-heading" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <h2 id="articles-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
          {page === 1 ? 'Latest articles' : `Articles, page ${page} of ${pageCount}`}
        </h2>
        <ul className="mt-8 grid gap-8 md:grid-cols-2 lg:grid-cols-3">
          {visible.map((post, index) => (
            <li key={post.slug} className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
              <BlogCover
                image={post.image}
                alt=""
                sizes="(min-width: 1024px) 400px, (min-width: 768px) 50vw, 100vw"
                priority={index === 0}
                className="aspect-video h-auto w-full object-cover"
              />
              <div className="flex flex-1 flex-col p-6">
                <p className="text-sm font-semibold text-blue-700">{post.category}</p>
                <h3 className="mt-2 text-xl font-bold text-slate-900">
                  <Link to={`/blog/${post.slug}`} className="rounded hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
                    {post.title}
                  </Link>
                </h3>
                <p className="mt-3 flex-1 text-slate-600">{post.excerpt}</p>
                <p className="mt-4 text-sm text-slate-600">
                  {post.author} · <time dateTime={post.date}>{formatPostDate(post.date)}</time> · {post.readTime}
                </p>
              </div>
            </li>
          ))}
        </ul>

        {page < pageCount ? (
          <div className="mt-12 text-center">
            <Link to={pageHref(page + 1)} preventScrollReset className={buttonVariants({ size: 'lg' })}>
              Load More Articles
            </Link>
          </div>
        ) : (
          pageCount > 1 && <Pagination page={page} />
        )}
      </section>
    </main>
  );
}

function Pagination({ page }: { page: number }) {
  const item = 'inline-flex h-11 min-w-11 items-center justify-center rounded-md px-4 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';
  return (
    <nav aria-label="Blog pages" className="mt-12">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 && (
          <li>
            <Link to={pageHref(page - 1)} preventScrollReset className={cx(item, 'border border-slate-300 text-slate-800 hover:bg-slate-50')}>
              Previous
            </Link>
          </li>
        )}
        {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
          <li key={n}>
            <Link
              to={pageHref(n)}
              preventScrollReset
              aria-current={n === page ? 'page' : undefined}
              aria-label={`Page ${n}`}
              className={cx(item, n === page ? 'bg-blue-700 text-white' : 'border border-slate-300 text-slate-800 hover:bg-slate-50')}
            >
              {n}
            </Link>
          </li>
        ))}
        {page < pageCount && (
          <li>
            <Link to={pageHref(page + 1)} preventScrollReset className={cx(item, 'border border-slate-300 text-slate-800 hover:bg-slate-50')}>
              Next
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
