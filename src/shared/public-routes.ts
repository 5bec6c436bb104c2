/**
 * Every public, indexable page that is not a blog article: the single list
 * behind the /sitemap page, /sitemap.xml and the SSR/a11y tests. Articles come
 * from content/blog. Add a page here when you add its route.
 */
export interface PublicRoute {
  path: string;
  /** Link text on the /sitemap page. */
  label: string;
  group: 'main' | 'legal';
  changefreq: 'daily' | 'weekly' | 'monthly' | 'yearly';
  priority: number;
}

export const publicRoutes: PublicRoute[] = [
  { path: '/', label: 'Home', group: 'main', changefreq: 'weekly', priority: 1 },
  { path: '/schedule', label: 'Schedule a Notary', group: 'main', changefreq: 'monthly', priority: 0.9 },
  { path: '/remote-notarization', label: 'Remote Online Notarization', group: 'main', changefreq: 'monthly', priority: 0.8 },
  { path: '/electronic-signatures', label: 'Electronic Signatures', group: 'main', changefreq: 'monthly', priority: 0.8 },
  { path: '/identity-verification', label: 'Identity Verification', group: 'main', changefreq: 'monthly', priority: 0.8 },
  { path: '/document-management', label: 'Document Management', group: 'main', changefreq: 'monthly', priority: 0.7 },
  { path: '/business-solutions', label: 'Business Solutions', group: 'main', changefreq: 'monthly', priority: 0.7 },
  { path: '/blog', label: 'Blog', group: 'main', changefreq: 'weekly', priority: 0.7 },
  { path: '/terms-of-service', label: 'Terms of Service', group: 'legal', changefreq: 'yearly', priority: 0.3 },
  { path: '/privacy-policy', label: 'Privacy Policy', group: 'legal', changefreq: 'yearly', priority: 0.3 },
  { path: '/cookie-policy', label: 'Cookie Policy', group: 'legal', changefreq: 'yearly', priority: 0.3 },
  { path: '/esign-consent', label: 'Electronic Records and Signatures Consent', group: 'legal', changefreq: 'yearly', priority: 0.3 },
  { path: '/accessibility', label: 'Accessibility Statement', group: 'legal', changefreq: 'yearly', priority: 0.3 },
  { path: '/verify', label: 'Verify a Notarized Document', group: 'legal', changefreq: 'yearly', priority: 0.4 },
  { path: '/sitemap', label: 'Sitemap', group: 'legal', changefreq: 'monthly', priority: 0.2 },
];

/** Paths no search engine should crawl (robots.txt). */
export const disallowedPaths = ['/admin', '/booking/', '/invitation/', '/api/', '/trpc'];
