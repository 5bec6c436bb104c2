import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blogCategories } from '../shared/blog.ts';
import { site } from '../shared/site.ts';
import { ContentError, readBlogIndex, readBlogPosts, readLegalDocuments } from './content.ts';

const root = process.cwd();
const body = 'Plain words for a post body. '.repeat(80);

function tempContent(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'notary-content-'));
  mkdirSync(path.join(dir, 'blog'));
  mkdirSync(path.join(dir, 'legal'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  temps.push(dir);
  return dir;
}
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const goodPost = `---
title: A perfectly fine title
excerpt: An excerpt that is long enough to pass the minimum length rule.
author: Jane Roe
date: 2026-01-02
readTime: 3 min read
image: /images/blog/a-post.webp
imageAlt: A description of the image
category: Notarization
tags: [one, two]
---

${body}
`;

describe('the real content', () => {
  it('has nine valid posts with images, newest first, in the six categories', () => {
    const posts = readBlogPosts(path.join(root, 'content'), path.join(root, 'public'));
    expect(posts).toHaveLength(9);
    for (const post of posts) {
      expect(blogCategories).toContain(post.category);
      const words = post.html.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).length;
      expect(words, post.slug).toBeGreaterThanOrEqual(400);
      expect(words, post.slug).toBeLessThanOrEqual(750);
    }
    const dates = posts.map((p) => p.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('links between posts only to posts that exist', () => {
    const posts = readBlogPosts(path.join(root, 'content'));
    const slugs = new Set(posts.map((p) => p.slug));
    for (const post of posts) {
      for (const [, slug] of post.html.matchAll(/href="\/blog\/([^"]+)"/g)) expect(slugs.has(slug!), `${post.slug} → ${slug}`).toBe(true);
    }
  });

  it('has the legal pages with the section counts of the spec and contact details from site.ts', () => {
    const docs = Object.fromEntries(readLegalDocuments(path.join(root, 'content')).map((d) => [d.slug, d]));
    const h2 = (slug: string) => (docs[slug]!.html.match(/<h2[\s>]/g) ?? []).length;
    expect(h2('terms-of-service')).toBe(13);
    expect(h2('privacy-policy')).toBe(10);
    expect(h2('cookie-policy')).toBe(7);
    expect(h2('esign-consent')).toBe(8);
    expect(docs['terms-of-service']!.html).toContain('State of Iowa');
    expect(docs['terms-of-service']!.html).toContain('at least 18 years old');
    expect(docs['accessibility']!.html).toContain('2 business days');
    expect(docs['accessibility']!.html).toContain(site.accessibilityEmail);
    expect(Object.values(docs).some((d) => d.html.includes('{{'))).toBe(false);
  });
});

describe('validation at build time', () => {
  it('accepts a good post and reads the index without rendering', () => {
    const dir = tempContent({ 'blog/a-post.md': goodPost });
    expect(readBlogIndex(dir)[0]).toMatchObject({ slug: 'a-post', date: '2026-01-02', category: 'Notarization' });
  });

  it('names the file and the field when front matter is wrong', () => {
    const dir = tempContent({ 'blog/a-post.md': goodPost.replace('category: Notarization', 'category: Gossip') });
    expect(() => readBlogPosts(dir)).toThrow(ContentError);
    expect(() => readBlogPosts(dir)).toThrow(/a-post\.md[\s\S]*category/);
  });

  it('rejects a missing field and an unknown field', () => {
    expect(() => readBlogPosts(tempContent({ 'blog/a-post.md': goodPost.replace('author: Jane Roe\n', '') }))).toThrow(/author/);
    expect(() => readBlogPosts(tempContent({ 'blog/a-post.md': goodPost.replace('author: Jane Roe', 'author: Jane Roe\nmood: happy') }))).toThrow(/mood|Unrecognized/);
  });

  it('rejects a missing cover image when the public folder is given', () => {
    const dir = tempContent({ 'blog/a-post.md': goodPost });
    expect(() => readBlogPosts(dir, path.join(dir, 'nothing-here'))).toThrow(/image \/images\/blog\/a-post\.webp not found/);
  });

  it('rejects a legal page whose section count differs from its front matter', () => {
    const dir = tempContent({
      'legal/terms.md': `---\ntitle: Terms\ndescription: A description that is long enough for the schema to accept it.\nupdated: 2026-01-01\nsections: 3\n---\n\n## One\n\nText.\n\n## Two\n\nText.\n`,
    });
    expect(() => readLegalDocuments(dir)).toThrow(/says 3 sections but the text has 2/);
  });

  it('fills contact placeholders and rejects unknown ones', () => {
    const ok = tempContent({ 'legal/a.md': `---\ntitle: About\ndescription: A description that is long enough for the schema to accept it.\nupdated: 2026-01-01\n---\n\nMail {{email}}.\n` });
    expect(readLegalDocuments(ok)[0]!.html).toContain(site.email);
    const bad = tempContent({ 'legal/a.md': `---\ntitle: About\ndescription: A description that is long enough for the schema to accept it.\nupdated: 2026-01-01\n---\n\nMail {{fax}}.\n` });
    expect(() => readLegalDocuments(bad)).toThrow(/unknown placeholder \{\{fax\}\}/);
  });
});
