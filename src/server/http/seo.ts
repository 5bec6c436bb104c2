import path from 'node:path';
import type { Express } from 'express';
import { readBlogIndex } from '../../build/content.ts';
import { disallowedPaths, publicRoutes } from '../../shared/public-routes.ts';
import type { Deps } from '../deps.ts';

/**
 * /sitemap.xml and /robots.txt, built once at start-up from the same sources
 * as the pages: the public route list (src/shared/public-routes.ts) and the
 * posts in content/blog (the files the client build was made from).
 */
export function mountSeo(app: Express, deps: Deps, options: { contentDir?: string } = {}): void {
  const origin = deps.config.publicUrl.replace(/\/$/, '');
  const posts = readBlogIndex(options.contentDir ?? path.join(process.cwd(), 'content'));
  const entries = [
    ...publicRoutes.map((r) => ({ loc: `${origin}${r.path}`, changefreq: r.changefreq, priority: r.priority, lastmod: null as string | null })),
    ...posts.map((p) => ({ loc: `${origin}/blog/${p.slug}`, changefreq: 'yearly', priority: 0.6, lastmod: p.date })),
  ];
  const sitemap = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries.map(
      (e) =>
        `  <url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}<changefreq>${e.changefreq}</changefreq><priority>${e.priority.toFixed(1)}</priority></url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');
  const robots = ['User-agent: *', 'Allow: /', ...disallowedPaths.map((p) => `Disallow: ${p}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');

  app.get('/sitemap.xml', (_req, res) => {
    res.type('application/xml').set('Cache-Control', 'public, max-age=3600').send(sitemap);
  });
  app.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robots);
  });
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
