import { Link } from 'react-router-dom';
import { posts } from 'virtual:blog-index';
import { publicRoutes } from '../../shared/public-routes.ts';
import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({
    title: 'Sitemap',
    description: 'Every page of the NotaryOnline website: services, blog articles, legal information and support.',
    path: '/sitemap',
  }),
};

/** Only pages that exist: the shared public route list and the posts in content/blog. */
const groups = [
  { id: 'main', title: 'Main Pages', links: publicRoutes.filter((r) => r.group === 'main').map((r) => ({ to: r.path, label: r.label })) },
  { id: 'blog', title: 'Blog', links: posts.map((p) => ({ to: `/blog/${p.slug}`, label: p.title })) },
  { id: 'legal', title: 'Legal & Support', links: publicRoutes.filter((r) => r.group === 'legal').map((r) => ({ to: r.path, label: r.label })) },
];

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900">Sitemap</h1>
      <p className="mt-4 text-lg text-slate-600">All the pages on our site in one place.</p>
      <div className="mt-12 grid gap-10 md:grid-cols-3">
        {groups.map((group) => (
          <section key={group.id} aria-labelledby={`sitemap-${group.id}`}>
            <h2 id={`sitemap-${group.id}`} className="text-xl font-bold text-slate-900">
              {group.title}
            </h2>
            <ul className="mt-4 space-y-3">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-blue-700 underline-offset-4 hover:text-blue-800 hover:underline focus-visible:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </main>
  );
}
