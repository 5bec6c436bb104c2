/**
 * The content pipeline: Markdown files with front matter under `content/`,
 * validated with zod and rendered with marked. The Vite plugin
 * (content-plugin.ts) turns them into modules at build time; the server reads
 * the blog index from the same files for /sitemap.xml. A bad file throws an
 * error naming the file and the field, which fails the build.
 *
 * Runs on plain Node (type stripping) as well as inside Vite: relative imports
 * keep their `.ts` extension and nothing here is TypeScript-only syntax.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { Marked, type Tokens } from 'marked';
import { z } from 'zod';
import { blogCategories, type BlogPost, type BlogPostSummary, type LegalDocument } from '../shared/blog.ts';
import { fullAddress, site } from '../shared/site.ts';

export class ContentError extends Error {
  override name = 'ContentError';
}

// YAML turns an unquoted 2025-03-14 into a Date; accept both spellings.
const isoDate = z.preprocess(
  (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value),
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be an ISO date like 2025-03-14'),
);

export const blogFrontMatter = z.strictObject({
  title: z.string().min(10).max(110),
  excerpt: z.string().min(40).max(240),
  author: z.string().min(3),
  date: isoDate,
  readTime: z.string().regex(/^\d+ min read$/, 'must read like "6 min read"'),
  image: z.string().regex(/^\/images\/blog\/[a-z0-9-]+\.webp$/, 'must be /images/blog/<name>.webp'),
  imageAlt: z.string().min(10),
  category: z.enum(blogCategories),
  tags: z.array(z.string().min(2)).min(2).max(8),
});

export const legalFrontMatter = z.strictObject({
  title: z.string().min(3),
  description: z.string().min(40).max(200),
  updated: isoDate,
  /** The number of h2 sections the page must have (docs/product.md §3.6); checked below. */
  sections: z.number().int().positive().optional(),
});

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function createMarked(): Marked {
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      // Headings get ids so sections can be linked to (legal pages, long articles).
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const text = this.parser.parseInline(token.tokens);
        return `<h${token.depth} id="${slugify(text)}">${text}</h${token.depth}>\n`;
      },
      // External links open normally but never leak the referrer or get window.opener.
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const external = /^https?:\/\//.test(token.href);
        const title = token.title ? ` title="${token.title}"` : '';
        return `<a href="${token.href}"${title}${external ? ' rel="noopener noreferrer"' : ''}>${text}</a>`;
      },
    },
  });
  return marked;
}

/** `{{email}}`-style placeholders, so contact details in Markdown come from src/shared/site.ts. */
const placeholders: Record<string, string> = {
  brand: site.brand,
  legalName: site.legalName,
  email: site.email,
  salesEmail: site.salesEmail,
  accessibilityEmail: site.accessibilityEmail,
  privacyEmail: site.privacyEmail,
  phone: site.phone,
  address: fullAddress,
};

function fillPlaceholders(file: string, body: string): string {
  return body.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
    const value = placeholders[name];
    if (value === undefined) throw new ContentError(`${file}: unknown placeholder {{${name}}}`);
    return value;
  });
}

function describeIssues(file: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => `  - ${issue.path.join('.') || '(front matter)'}: ${issue.message}`);
  return `Invalid front matter in ${file}:\n${lines.join('\n')}`;
}

interface ParsedFile {
  file: string;
  slug: string;
  data: Record<string, unknown>;
  body: string;
}

function readMarkdownDir(dir: string): ParsedFile[] {
  if (!existsSync(dir)) throw new ContentError(`Content folder ${dir} does not exist`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      const slug = name.slice(0, -3);
      if (!slugPattern.test(slug)) throw new ContentError(`${file}: file name must be a kebab-case slug`);
      const parsed = matter(readFileSync(file, 'utf8'));
      return { file, slug, data: parsed.data, body: fillPlaceholders(file, parsed.content) };
    });
}

function parseBlogSummary(parsed: ParsedFile, publicDir: string | null): BlogPostSummary {
  const result = blogFrontMatter.safeParse(parsed.data);
  if (!result.success) throw new ContentError(describeIssues(parsed.file, result.error));
  const meta = result.data;
  if (publicDir) {
    for (const image of [meta.image, meta.image.replace(/\.webp$/, '.avif')]) {
      if (!existsSync(path.join(publicDir, image))) {
        throw new ContentError(`${parsed.file}: image ${image} not found in public/ (run npm run images)`);
      }
    }
  }
  return { slug: parsed.slug, ...meta };
}

function sortNewestFirst<T extends { date: string; slug: string }>(posts: T[]): T[] {
  return posts.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}

/** Front matter of every post, newest first (no Markdown rendering: cheap enough for server start-up). */
export function readBlogIndex(contentDir: string, publicDir: string | null = null): BlogPostSummary[] {
  return sortNewestFirst(readMarkdownDir(path.join(contentDir, 'blog')).map((p) => parseBlogSummary(p, publicDir)));
}

/** Every post with its body rendered to HTML, newest first. */
export function readBlogPosts(contentDir: string, publicDir: string | null = null): BlogPost[] {
  const marked = createMarked();
  const posts = readMarkdownDir(path.join(contentDir, 'blog')).map((parsed) => {
    const summary = parseBlogSummary(parsed, publicDir);
    if (/^#\s/m.test(parsed.body)) {
      throw new ContentError(`${parsed.file}: the body must not contain a level-1 heading (the page title is the h1)`);
    }
    const words = parsed.body.split(/\s+/).filter(Boolean).length;
    if (words < 300) throw new ContentError(`${parsed.file}: the body has ${words} words; a post needs at least 300`);
    return { ...summary, html: marked.parse(parsed.body, { async: false }) };
  });
  return sortNewestFirst(posts);
}

/** Legal documents by slug; the h2 count must match `sections` when given. */
export function readLegalDocuments(contentDir: string): LegalDocument[] {
  const marked = createMarked();
  return readMarkdownDir(path.join(contentDir, 'legal')).map((parsed) => {
    const result = legalFrontMatter.safeParse(parsed.data);
    if (!result.success) throw new ContentError(describeIssues(parsed.file, result.error));
    const { sections, ...meta } = result.data;
    const html = marked.parse(parsed.body, { async: false });
    const h2Count = (html.match(/<h2[\s>]/g) ?? []).length;
    if (sections !== undefined && h2Count !== sections) {
      throw new ContentError(`${parsed.file}: front matter says ${sections} sections but the text has ${h2Count} "## " headings`);
    }
    return { slug: parsed.slug, ...meta, html };
  });
}
