import { describe, expect, it } from 'vitest';
import { blogPageSize } from '../../src/shared/blog.ts';
import { publicRoutes } from '../../src/shared/public-routes.ts';
import { site } from '../../src/shared/site.ts';
import { baseUrl } from './browser.ts';
import { blogPosts, decodeEntities, firstH1, publicPaths } from './public-pages.ts';

/** What each page must already say in the server's HTML, before any script runs. */
const expected: Record<string, { h1: string; text: string[] }> = {
  // A fresh install: no notary has hours, so the page states the business hours, never "24/7" (issue 28).
  '/': { h1: 'Get Your Documents Notarized Online', text: ['Notaries are available every day 8:00 AM–11:00 PM (Central Time).', 'Notary services: every day 8:00 AM–11:00 PM (Central Time)', 'Best Value!', '$25.00', 'Learn More', 'Notarized in four simple steps', 'Monday to Sunday 9:00 AM to 9:00 PM', site.email] },
  // A fresh install has business hours, not 24/7: the page says the real ones (decision 096).
  '/remote-notarization': { h1: 'Notarize Documents Online by Secure Video', text: ['every day 8:00 AM–11:00 PM (Central Time)', 'no extra cost', 'Four steps to a notarized document'] },
  '/electronic-signatures': { h1: 'Sign Documents Electronically, Legally and Securely', text: ['ESIGN Act', 'UETA', 'Signed in three steps'] },
  '/identity-verification': { h1: 'Know Who Is Signing, Without Meeting in Person', text: ['Verified in four steps', 'Use cases'] },
  '/document-management': { h1: 'Your Notarized Documents, Delivered Securely', text: ['Personal Documents', '5GB storage', 'Business Pro', '50GB storage', 'Enterprise', 'Unlimited storage', 'Contact Sales', 'Join the waiting list'] },
  '/business-solutions': { h1: 'Notarization That Scales With Your Business', text: ['Trusted across industries', 'Four ways we support your team', 'Sample client stories', 'Tell us about your business'] },
  '/blog': { h1: 'NotaryOnline Blog', text: ['Notarization', 'E-Signatures', 'Legal Tips', 'Document Security', 'Industry News', 'Technology', 'Load More Articles'] },
  '/terms-of-service': { h1: 'Terms of Service', text: ['Last updated', 'State of Iowa', 'at least 18 years old'] },
  '/privacy-policy': { h1: 'Privacy Policy', text: ['Last updated', 'Information we collect'] },
  '/cookie-policy': { h1: 'Cookie Policy', text: ['Last updated', 'Cookies we use'] },
  '/esign-consent': { h1: 'Electronic Records and Signatures Consent', text: ['15 U.S.C. 7001', 'paper copies', 'withdraw', 'Hardware and software requirements'] },
  '/accessibility': { h1: 'Accessibility Statement', text: ['WCAG 2.1', '2 business days', site.accessibilityEmail] },
  '/sitemap': { h1: 'Sitemap', text: ['Main Pages', 'Legal &amp; Support'] },
};

const h2Count = (html: string) => (/<main[\s\S]*<\/main>/.exec(html)?.[0].match(/<h2[\s>]/g) ?? []).length;

describe('every public route is served as complete HTML', () => {
  it.each(publicPaths)('%s answers 200 with its h1 and main text', async (path) => {
    const res = await fetch(`${baseUrl()}${path}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const h1 = firstH1(html);
    expect(h1, 'server-rendered h1').toBeTruthy();
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toContain('<link rel="canonical"');
    const post = blogPosts.find((p) => path === `/blog/${p.slug}`);
    if (post) {
      expect(h1).toBe(post.title);
      expect(decodeEntities(html)).toContain(post.author);
      expect(h2Count(html)).toBeGreaterThanOrEqual(3);
      expect(html).toContain('"@type":"BlogPosting"');
      expect(html).toMatch(/<img[^>]+width="1200"[^>]+height="675"/);
    }
    const page = expected[path];
    if (page) {
      expect(h1).toBe(page.h1);
      for (const text of page.text) expect(html, text).toContain(text);
    }
  });

  it('has the legal section counts of the spec', async () => {
    const counts: Record<string, number> = { '/terms-of-service': 13, '/privacy-policy': 10, '/cookie-policy': 7, '/esign-consent': 8 };
    for (const [path, count] of Object.entries(counts)) {
      const html = await (await fetch(`${baseUrl()}${path}`)).text();
      expect(h2Count(html), path).toBe(count);
    }
  });

  it('puts the LegalService facts on the home page', async () => {
    const html = await (await fetch(`${baseUrl()}/`)).text();
    const json = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json!);
    expect(data).toMatchObject({
      '@type': 'LegalService',
      telephone: site.phoneHref,
      email: site.email,
      areaServed: { name: 'United States' },
      aggregateRating: { ratingValue: 4.9, reviewCount: 527 },
      makesOffer: { price: '25.00', priceCurrency: 'USD' },
      address: { addressLocality: 'Des Moines', addressRegion: 'IA' },
    });
    // The hours are the real ones (business hours on a fresh install), not "open 24 hours".
    expect(data.openingHours).toBeUndefined();
    expect(data.openingHoursSpecification).toHaveLength(7);
    expect(data.openingHoursSpecification[1]).toEqual({ '@type': 'OpeningHoursSpecification', dayOfWeek: 'Monday', opens: '08:00', closes: '23:00' });
    expect(data.description).not.toContain('24/7');
  });

  it('lists six posts on page 1 and the rest on page 2', async () => {
    const page1 = await (await fetch(`${baseUrl()}/blog`)).text();
    const page2 = await (await fetch(`${baseUrl()}/blog?page=2`)).text();
    const links = (html: string) => [...new Set([...html.matchAll(/href="\/blog\/([a-z0-9-]+)"/g)].map((m) => m[1]))];
    expect(links(page1)).toEqual(blogPosts.slice(0, blogPageSize).map((p) => p.slug));
    expect(links(page2)).toEqual(blogPosts.slice(blogPageSize).map((p) => p.slug));
    expect(page2).not.toContain('Load More Articles');
    expect(page2).toContain('Previous');
  });
});

describe('unknown pages are real 404s', () => {
  it.each(['/no-such-page', '/blog/no-such-article', '/blog?page=99', '/blog/online-notarization-vs-traditional'])('%s answers 404 with the Not Found page', async (path) => {
    const res = await fetch(`${baseUrl()}${path}`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('Page Not Found');
    expect(html).toContain('Return to Home');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });
});

describe('sitemap page, sitemap.xml and robots.txt', () => {
  it('the /sitemap page lists every page that exists, grouped, and nothing else', async () => {
    const html = await (await fetch(`${baseUrl()}/sitemap`)).text();
    for (const route of publicRoutes) expect(html).toContain(`href="${route.path}"`);
    for (const post of blogPosts) expect(html).toContain(`href="/blog/${post.slug}"`);
    expect(html).not.toContain('enotary-vs-bluenotary-comparison');
    const main = /<main[\s\S]*<\/main>/.exec(html)![0];
    const headings = [...main.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => decodeEntities(m[1]!));
    expect(headings).toEqual(['Main Pages', 'Blog', 'Legal & Support']);
  });

  it('sitemap.xml lists the public routes and every post with absolute URLs', async () => {
    const res = await fetch(`${baseUrl()}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('xml');
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(locs.sort()).toEqual([...publicRoutes.map((r) => r.path), ...blogPosts.map((p) => `/blog/${p.slug}`)].sort());
    for (const post of blogPosts) expect(xml).toContain(`<lastmod>${post.date}</lastmod>`);
  });

  it('robots.txt allows the site, keeps crawlers out of private paths and points to the sitemap', async () => {
    const res = await fetch(`${baseUrl()}/robots.txt`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('User-agent: *\nAllow: /');
    for (const path of ['/admin', '/booking/', '/api/', '/trpc']) expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).toMatch(/^Sitemap: https?:\/\/[^\s]+\/sitemap\.xml$/m);
  });
});
