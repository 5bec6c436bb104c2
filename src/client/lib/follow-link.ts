import type { MouseEvent } from 'react';
import type { NavigateFunction } from 'react-router-dom';

/**
 * Plain links in server HTML (server-HTML pages, the footer) and in the header navigate
 * through the router, as a <Link> would (docs/decisions/051): a click handler on their container.
 */
export function followLink(event: MouseEvent<HTMLElement>, navigate: NavigateFunction) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element).closest('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, window.location.href);
  // Other sites, mail and phone links, and the staff console (a full page load, as in the footer) stay with the browser.
  if (url.origin !== window.location.origin || url.pathname.startsWith('/admin')) return;
  // An anchor on this page: the browser scrolls to it.
  if (url.hash && url.pathname === window.location.pathname && url.search === window.location.search) return;
  event.preventDefault();
  void navigate(url.pathname + url.search + url.hash);
}
