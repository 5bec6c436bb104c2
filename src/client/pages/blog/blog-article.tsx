import { ArrowLeft, CalendarDays, Clock, User } from 'lucide-react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { postModules } from 'virtual:blog-index';
import { formatPostDate, type BlogPost } from '../../../shared/blog.ts';
import { site } from '../../../shared/site.ts';
import { BlogCover } from '../../components/marketing/blog-cover.tsx';
import { Prose } from '../../components/marketing/prose.tsx';
import { ShareButtons } from '../../components/marketing/share-buttons.tsx';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { notFoundMeta, type RouteHandle } from '../../lib/meta.ts';
import { islandProps } from '../../server-html.ts';

/** Each article is its own chunk (see src/build/content-plugin.ts); an unknown slug is a real 404. */
export async function loader({ params }: LoaderFunctionArgs) {
  const load = params.slug ? postModules[params.slug] : undefined;
  if (!load) throw new Response(null, { status: 404, statusText: 'Not Found' });
  return { post: await load() };
}

export const handle: RouteHandle = {
  meta: ({ data }: { data: { post: BlogPost } | undefined }) => {
    if (!data) return notFoundMeta;
    const { post } = data;
    return {
      title: post.title,
      description: post.excerpt,
      path: `/blog/${post.slug}`,
      type: 'article',
      image: post.image,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'BlogPosting',
          headline: post.title,
          description: post.excerpt,
          image: post.image,
          datePublished: post.date,
          dateModified: post.date,
          author: { '@type': post.author.includes('Team') ? 'Organization' : 'Person', name: post.author },
          publisher: { '@type': 'Organization', name: site.brand },
          articleSection: post.category,
          keywords: post.tags.join(', '),
          mainEntityOfPage: `/blog/${post.slug}`,
        },
      ],
    };
  },
};

export function Component() {
  const { post } = useLoaderData() as Awaited<ReturnType<typeof loader>>;
  return (
    <main id="main">
      <article>
        <header className="mx-auto max-w-3xl px-4 pt-10 sm:px-6">
          <Link to="/blog" className="inline-flex items-center gap-2 rounded font-semibold text-blue-700 hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
            <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Blog
          </Link>
          <p className="mt-8 text-sm font-semibold uppercase tracking-wider text-blue-700">{post.category}</p>
          <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{post.title}</h1>
          <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-slate-600">
            <li className="flex items-center gap-2">
              <User aria-hidden="true" className="h-4 w-4" />
              <span className="sr-only">Author: </span>
              {post.author}
            </li>
            <li className="flex items-center gap-2">
              <CalendarDays aria-hidden="true" className="h-4 w-4" />
              <span className="sr-only">Published: </span>
              <time dateTime={post.date}>{formatPostDate(post.date)}</time>
            </li>
            <li className="flex items-center gap-2">
              <Clock aria-hidden="true" className="h-4 w-4" />
              {post.readTime}
            </li>
          </ul>
        </header>
        <div className="mx-auto mt-10 max-w-4xl px-4 sm:px-6">
          <BlogCover image={post.image} alt={post.imageAlt} sizes="(min-width: 896px) 848px, 100vw" priority className="aspect-video h-auto w-full rounded-2xl object-cover" />
        </div>
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
          <Prose html={post.html} />
          <footer className="mt-12 space-y-8 border-t border-slate-200 pt-8">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-semibold text-slate-900">Tags:</span>
              <ul className="flex flex-wrap gap-2">
                {post.tags.map((tag) => (
                  <li key={tag} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700">
                    {tag}
                  </li>
                ))}
              </ul>
            </div>
            {/* An island when the article is shown as its server HTML (src/client/server-html.ts). */}
            <div {...islandProps('share-buttons', { title: post.title, path: `/blog/${post.slug}` })}>
              <ShareButtons title={post.title} path={`/blog/${post.slug}`} />
            </div>
          </footer>
        </div>
      </article>
      <aside aria-labelledby="article-cta-heading" className="bg-blue-800">
        <div className="mx-auto max-w-3xl px-4 py-14 text-center sm:px-6">
          <h2 id="article-cta-heading" className="text-3xl font-bold text-white">
            Need a document notarized?
          </h2>
          <p className="mt-4 text-lg text-blue-50">Meet a commissioned notary by secure video and download your notarized document as soon as it is sealed.</p>
          <div className="mt-8 flex flex-wrap justify-center gap-4">
            <Link to="/schedule" className={buttonVariants({ variant: 'inverse', size: 'lg' })}>
              Schedule a Notary
            </Link>
            <Link to="/blog" className={`${buttonVariants({ size: 'lg' })} border border-white/70 bg-transparent hover:bg-blue-900`}>
              More articles
            </Link>
          </div>
        </div>
      </aside>
    </main>
  );
}
