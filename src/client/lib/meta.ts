import type { Params } from 'react-router-dom';
import { brand, tagline } from '../../shared/brand.ts';
import type { PublicConfig } from '../../shared/public-config.ts';

/** What a page says about itself to browsers, search engines and link previews. */
export interface PageMeta {
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. "/blog/how-it-works". */
  path: string;
  type?: 'website' | 'article';
  /** Site-relative or absolute image for Open Graph. */
  image?: string;
  jsonLd?: Record<string, unknown>[];
  noindex?: boolean;
}

export interface MetaArgs<Data = unknown> {
  params: Params;
  data: Data;
  /** The server's public configuration (the hours of service the home page's markup states). */
  config?: PublicConfig;
}

/** Route modules export `handle = { meta }`; the deepest match wins. */
export interface RouteHandle {
  meta?: (args: MetaArgs<never>) => PageMeta;
}

export function documentTitle(title: string): string {
  return title === brand || title.endsWith(`| ${brand}`) ? title : `${title} | ${brand}`;
}

export const notFoundMeta: PageMeta = {
  title: 'Page Not Found',
  description: 'The page you were looking for does not exist.',
  path: '/404',
  noindex: true,
};

interface MatchLike {
  /** Set on useMatches() entries; the static handler's matches carry it on `route` only. */
  id?: string;
  params: Params;
  handle?: unknown;
  route?: { id?: string; handle?: unknown };
}

export function resolveMeta(
  matches: MatchLike[],
  loaderData: Record<string, unknown>,
  hasNotFound: boolean,
  config?: PublicConfig,
): PageMeta {
  if (hasNotFound) return notFoundMeta;
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i]!;
    const handle = (match.handle ?? match.route?.handle) as RouteHandle | undefined;
    const id = match.id ?? match.route?.id;
    if (handle?.meta) return handle.meta({ params: match.params, data: (id ? loaderData[id] : undefined) as never, config });
  }
  return { title: brand, description: tagline, path: '/' };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The <head> tags for a page, as HTML (server rendering). */
export function renderHeadTags(meta: PageMeta, origin: string, nonce?: string): string {
  const canonical = `${origin}${meta.path}`;
  const image = meta.image ? new URL(meta.image, origin).toString() : `${origin}/og-image.png`;
  const tags = [
    `<title>${escapeHtml(documentTitle(meta.title))}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    `<meta property="og:site_name" content="${escapeHtml(brand)}">`,
    `<meta property="og:title" content="${escapeHtml(documentTitle(meta.title))}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:type" content="${meta.type ?? 'website'}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    `<meta property="og:image" content="${escapeHtml(image)}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
  ];
  if (meta.noindex) tags.push('<meta name="robots" content="noindex">');
  for (const data of meta.jsonLd ?? []) {
    // `<` escaped so the JSON can never close the script element.
    const json = JSON.stringify(data).replace(/</g, '\\u003c');
    tags.push(`<script type="application/ld+json"${nonce ? ` nonce="${nonce}"` : ''}>${json}</script>`);
  }
  return tags.join('\n    ');
}

/** Keeps the head in step after client-side navigation. */
export function applyMetaToDocument(meta: PageMeta): void {
  const origin = window.location.origin;
  document.title = documentTitle(meta.title);
  const set = (selector: string, attribute: string, value: string) => {
    document.head.querySelector(selector)?.setAttribute(attribute, value);
  };
  set('meta[name="description"]', 'content', meta.description);
  set('link[rel="canonical"]', 'href', `${origin}${meta.path}`);
  set('meta[property="og:title"]', 'content', documentTitle(meta.title));
  set('meta[property="og:description"]', 'content', meta.description);
  set('meta[property="og:url"]', 'content', `${origin}${meta.path}`);
}
