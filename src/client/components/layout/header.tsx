import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import { useLocation, useNavigate } from 'react-router-dom';
import { brand } from '../../../shared/brand.ts';
import { followLink } from '../../lib/follow-link.ts';
import { scrollToSection, scrollToTop } from '../marketing/motion.ts';
import { BrandMark } from './brand-mark.tsx';
import { ghostIconButton, primaryButton, primaryButtonSmall } from './header-classes.ts';
import { CloseIcon, MenuIcon } from './icons.tsx';

/** docs/product.md §3.1, in this order. `section` links are anchors on the home page. */
const navItems: { label: string; to: string; section?: string }[] = [
  { label: 'Home', to: '/' },
  { label: 'Services', to: '/#services', section: 'services' },
  { label: 'How It Works', to: '/#process', section: 'process' },
  { label: 'Blog', to: '/blog' },
  { label: 'About', to: '/#about', section: 'about' },
  { label: 'Contact', to: '/#contact', section: 'contact' },
];

/** Pixels of scroll after which the header turns translucent (docs/product.md §3.1). */
const scrollThreshold = 20;
const menuId = 'mobile-menu';

export function Header() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > scrollThreshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  // On the home page, Home and the section links scroll in place; elsewhere
  // they navigate to "/#section" and the home page scrolls on arrival.
  const onNavClick = (event: MouseEvent<HTMLAnchorElement>, section: string | undefined) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    // Close the phone menu before anything scrolls: the sticky header holds it, so
    // a scroll measured while it is open lands one menu-height too far down.
    flushSync(() => setMenuOpen(false));
    if (pathname !== '/') return;
    event.preventDefault();
    if (section) scrollToSection(section);
    else scrollToTop();
  };

  const isHomeLink = (to: string) => to === '/' || to.startsWith('/#');
  // The same links in the desktop bar and the mobile menu; only their look differs.
  const renderNavItems = (className: string) =>
    navItems.map((item) => (
      <li key={item.label}>
        <a
          href={item.to}
          onClick={isHomeLink(item.to) ? (e) => onNavClick(e, item.section) : undefined}
          aria-current={item.to === pathname ? 'page' : undefined}
          className={className}
        >
          {item.label}
        </a>
      </li>
    ));

  return (
    // Its links are plain anchors that navigate through the router (followLink), as <Link> would
    // (docs/decisions/051).
    <header
      data-scrolled={scrolled}
      onClick={(event) => followLink(event, navigate)}
      className={`sticky top-0 z-50 border-b transition-[background-color,box-shadow,border-color] duration-300 ${
        scrolled ? 'border-transparent bg-white/80 shadow-md backdrop-blur-md' : 'border-slate-100 bg-white'
      }`}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <a
          href="/"
          onClick={(e) => onNavClick(e, undefined)}
          className="flex items-center gap-2 rounded text-xl font-bold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-blue-700"
        >
          <BrandMark className="h-8 w-8" />
          {brand}
        </a>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <ul className="flex items-center gap-1">
            {renderNavItems(
              'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[current=page]:text-blue-700',
            )}
          </ul>
          <a href="/schedule" className={`${primaryButtonSmall} ml-3`}>
            Schedule a Notary
          </a>
        </nav>

        <button
          ref={toggleRef}
          type="button"
          className={`${ghostIconButton} md:hidden`}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <CloseIcon className="h-6 w-6" /> : <MenuIcon className="h-6 w-6" />}
        </button>
      </div>

      <nav id={menuId} aria-label="Mobile" hidden={!menuOpen} className="border-t border-slate-200 bg-white md:hidden">
        <ul className="flex flex-col px-4 py-3">
          {renderNavItems(
            'block rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
          )}
          <li className="pt-2">
            <a href="/schedule" className={`${primaryButton} w-full`}>
              Schedule a Notary
            </a>
          </li>
        </ul>
      </nav>
    </header>
  );
}
