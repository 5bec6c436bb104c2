/**
 * Blog facts shared by the browser, the build and the server. Posts are
 * Markdown files in `content/blog/`, validated and rendered at build time
 * (src/build/content.ts); the browser only ever sees these shapes.
 */
export const blogCategories = [
  'Notarization',
  'E-Signatures',
  'Legal Tips',
  'Document Security',
  'Industry News',
  'Technology',
] as const;

export type BlogCategory = (typeof blogCategories)[number];

/** docs/product.md §3.5: six posts per page. */
export const blogPageSize = 6;

/** What the list, the sitemap and link previews need: everything but the body. */
export interface BlogPostSummary {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  /** ISO date, e.g. "2025-03-14". */
  date: string;
  readTime: string;
  /** Site path of the WebP cover; an AVIF sits beside it with the same name. */
  image: string;
  imageAlt: string;
  category: BlogCategory;
  tags: string[];
}

export interface BlogPost extends BlogPostSummary {
  /** Rendered at build time from our own Markdown (trusted). */
  html: string;
}

export interface LegalDocument {
  slug: string;
  title: string;
  description: string;
  /** ISO date of the last revision. */
  updated: string;
  html: string;
}

/** Cover images are produced in two sizes by scripts/build-images.ts. */
export const blogImageSize = { width: 1200, height: 675 } as const;

export function blogPageCount(postCount: number): number {
  return Math.max(1, Math.ceil(postCount / blogPageSize));
}

/** "November 10, 2026" — format 'MMMM d, yyyy' (docs/product.md §3.5), identical on server and browser. */
export function formatPostDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}
