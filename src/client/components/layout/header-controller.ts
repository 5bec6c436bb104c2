import { scrollToSection, scrollToTop } from '../marketing/motion.ts';

/**
 * The header's behaviour over its server HTML (docs/product.md §3.1, docs/decisions/051): the
 * header is the same on every page, so in the browser it stays the server's markup
 * (`ServerHeader` in root-layout.tsx) and this plain-DOM controller does what its React
 * component did — the translucent look after scrolling, the phone menu (toggle, Escape, closed
 * on every link), in-place scrolling for Home and the section links on the home page, and
 * `aria-current` on the page's own link — without React code on every first load.
 */

/** Pixels of scroll after which the header turns translucent (docs/product.md §3.1). */
export const scrollThreshold = 20;

/** The header's classes, plain and scrolled; header.tsx renders the first on the server. */
export function headerClass(scrolled: boolean): string {
  return `sticky top-0 z-50 border-b transition-[background-color,box-shadow,border-color] duration-300 ${
    scrolled ? 'border-transparent bg-white/80 shadow-md backdrop-blur-md' : 'border-slate-100 bg-white'
  }`;
}

export interface HeaderControl {
  /** After every navigation: closes the menu and marks the page's own link. */
  navigated(pathname: string): void;
  dispose(): void;
}

/** Wires the server-rendered header (see header.tsx for the markup it expects). */
export function controlHeader(header: HTMLElement): HeaderControl {
  const toggle = header.querySelector<HTMLButtonElement>('button[aria-controls]')!;
  const menu = header.ownerDocument.getElementById(toggle.getAttribute('aria-controls')!)!;
  const [openIcon, closeIcon] = toggle.querySelectorAll('svg');

  const isOpen = () => !menu.hidden;
  const setOpen = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open));
    toggle.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
    openIcon?.classList.toggle('hidden', open);
    closeIcon?.classList.toggle('hidden', !open);
    menu.hidden = !open;
  };

  const onScroll = () => {
    const scrolled = window.scrollY > scrollThreshold;
    header.dataset.scrolled = String(scrolled);
    header.className = headerClass(scrolled);
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && isOpen()) {
      setOpen(false);
      toggle.focus();
    }
  };
  // Runs before the router's click handler on the header (React listens at the root).
  const onClick = (event: MouseEvent) => {
    const target = event.target as Element;
    if (toggle.contains(target)) {
      setOpen(!isOpen());
      return;
    }
    const anchor = target.closest('a');
    if (!anchor || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    // Closed before anything scrolls: the sticky header holds the menu, so a scroll measured
    // while it is open lands one menu-height too far down.
    setOpen(false);
    // On the home page, Home and the section links scroll in place; elsewhere they navigate
    // to "/#section" and the home page scrolls on arrival.
    const url = new URL(anchor.href);
    if (url.origin !== window.location.origin || url.pathname !== '/' || window.location.pathname !== '/') return;
    event.preventDefault();
    if (url.hash) scrollToSection(url.hash.slice(1));
    else scrollToTop();
  };

  onScroll();
  window.addEventListener('scroll', onScroll, { passive: true });
  document.addEventListener('keydown', onKey);
  header.addEventListener('click', onClick);
  return {
    navigated(pathname) {
      setOpen(false);
      for (const link of header.querySelectorAll<HTMLAnchorElement>('a[data-nav-item]')) {
        if (link.getAttribute('href') === pathname) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
    },
    dispose() {
      window.removeEventListener('scroll', onScroll);
      document.removeEventListener('keydown', onKey);
      header.removeEventListener('click', onClick);
    },
  };
}
