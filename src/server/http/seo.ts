import path from 'node:path';
import type { Express } from 'express';
import { disallowedPaths, publicRoutes } from '../../shared/public-routes.ts';
import type { Deps } from '../deps.ts';

/**
 * /sitemap.xml and /robots.txt, from the same sources as the pages: the
 * public route list (src/shared/public-routes.ts) and the posts in
 * content/blog (the files the client build was made from). The sitemap is
 * built on its first request, once: reading the posts' front matter loads a
 * Markdown and YAML toolchain start-up does not need.
 */
export function mountSeo(app: Express, deps: Deps, options: { contentDir?: string } = {}): void {
  const origin = deps.config.publicUrl.replace(/\/$/, '');
  let sitemap: Promise<string> | undefined;
  const buildSitemap = async () => {
    const { readBlogIndex } = await import('../../build/content.ts');
    return sitemapXml(origin, readBlogIndex(options.contentDir ?? path.join(process.cwd(), 'content')));
  };
  const robots = ['User-agent: *', 'Allow: /', ...disallowedPaths.map((p) => `Disallow: ${p}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');

  app.get('/sitemap.xml', async (_req, res, next) => {
    try {
      sitemap ??= buildSitemap();
      res.type('application/xml').set('Cache-Control', 'public, max-age=3600').send(await sitemap);
    } catch (error) {
      sitemap = undefined;
      next(error);
    }
  });
  app.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robots);
  });
}

function sitemapXml(origin: string, posts: Array<{ slug: string; date: string }>): string {
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
  return sitemap;
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
