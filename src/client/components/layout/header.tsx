import { useLocation } from 'react-router-dom';
import { brand } from '../../../shared/brand.ts';
import { BrandMark } from './brand-mark.tsx';
import { headerClass } from './header-controller.ts';
import { ghostIconButton, primaryButton, primaryButtonSmall } from './header-classes.ts';
import { CloseIcon, MenuIcon } from './icons.tsx';

/** docs/product.md §3.1, in this order. `/#…` links are anchors on the home page. */
const navItems: { label: string; to: string }[] = [
  { label: 'Home', to: '/' },
  { label: 'Services', to: '/#services' },
  { label: 'How It Works', to: '/#process' },
  { label: 'Blog', to: '/blog' },
  { label: 'About', to: '/#about' },
  { label: 'Contact', to: '/#contact' },
];

const menuId = 'mobile-menu';

/**
 * The site header as the server renders it. In the browser it stays this HTML: header-controller.ts
 * gives it its behaviour and root-layout.tsx routes its links (docs/decisions/051). The markup is
 * the controller's contract: the toggle is the button with `aria-controls`, its first icon shows
 * "open" and its second "close", and `data-nav-item` marks the links that get `aria-current`.
 */
export function Header() {
  const { pathname } = useLocation();
  // The same links in the desktop bar and the mobile menu; only their look differs.
  const renderNavItems = (className: string) =>
    navItems.map((item) => (
      <li key={item.label}>
        <a href={item.to} data-nav-item="" aria-current={item.to === pathname ? 'page' : undefined} className={className}>
          {item.label}
        </a>
      </li>
    ));

  return (
    <header data-scrolled="false" className={headerClass(false)}>
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <a
          href="/"
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

        <button type="button" className={`${ghostIconButton} md:hidden`} aria-label="Open menu" aria-expanded="false" aria-controls={menuId}>
          <MenuIcon className="h-6 w-6" />
          <CloseIcon className="hidden h-6 w-6" />
        </button>
      </div>

      <nav id={menuId} aria-label="Mobile" hidden className="border-t border-slate-200 bg-white md:hidden">
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
