import path from 'node:path';
import { readBlogIndex } from '../../src/build/content.ts';
import { publicRoutes } from '../../src/shared/public-routes.ts';

/** The blog posts in content/, as the build saw them. */
export const blogPosts = readBlogIndex(path.join(process.cwd(), 'content'));

/** Every public route a visitor can reach: the shared list, the second blog page and every article. */
export const publicPaths = [...publicRoutes.map((r) => r.path), '/blog?page=2', ...blogPosts.map((p) => `/blog/${p.slug}`)];

/** Text of the first <h1> in server-rendered HTML, entities decoded. */
export function firstH1(html: string): string | null {
  const match = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return match ? decodeEntities(match[1]!.replace(/<[^>]+>/g, '')).trim() : null;
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
