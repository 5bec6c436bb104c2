import { Link } from 'react-router-dom';
import { fullAddress, site } from '../../../shared/site.ts';
import { usePublicConfig } from '../../lib/public-config.tsx';
import { BrandMark } from './brand-mark.tsx';
import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from './icons.tsx';

const serviceLinks = [
  { to: '/remote-notarization', label: 'Remote Notarization' },
  { to: '/electronic-signatures', label: 'Electronic Signatures' },
  { to: '/identity-verification', label: 'Identity Verification' },
  { to: '/document-management', label: 'Document Management' },
  { to: '/business-solutions', label: 'Business Solutions' },
  { to: '/schedule', label: 'Schedule a Notary' },
];

/** The footer links of docs/product.md §3.2, plus the ESIGN consent every booking refers to. */
const legalLinks = [
  { to: '/terms-of-service', label: 'Terms of Service' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/cookie-policy', label: 'Cookie Policy' },
  { to: '/esign-consent', label: 'E-Sign Consent' },
  { to: '/accessibility', label: 'Accessibility' },
  { to: '/verify', label: 'Verify a Document' },
  { to: '/sitemap', label: 'Sitemap' },
  { to: '/admin/chat', label: 'Admin Chat' },
];

const linkClass =
  'rounded text-slate-300 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

export function Footer() {
  const { serviceHoursText } = usePublicConfig();
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div>
          <Link to="/" className="flex items-center gap-2 text-xl font-bold text-white">
            <BrandMark className="h-8 w-8" />
            {site.brand}
          </Link>
          <p className="mt-4 text-sm leading-6">{site.tagline} Legally binding in all 50 states.</p>
        </div>

        <nav aria-labelledby="footer-services">
          <h2 id="footer-services" className="text-sm font-semibold uppercase tracking-wider text-white">
            Services
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {serviceLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/blog" className={linkClass}>
                Blog
              </Link>
            </li>
          </ul>
        </nav>

        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="text-sm font-semibold uppercase tracking-wider text-white">
            Legal &amp; Support
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {legalLinks.map((link) => (
              <li key={link.to}>
                {/* The staff console is a separate app: a full page load, not a client-side route. */}
                {link.to.startsWith('/admin') ? (
                  <a href={link.to} className={linkClass}>
                    {link.label}
                  </a>
                ) : (
                  <Link to={link.to} className={linkClass}>
                    {link.label}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Contact</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li className="flex gap-2">
              <MailIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <a href={`mailto:${site.email}`} className={linkClass}>
                {site.email}
              </a>
            </li>
            <li className="flex gap-2">
              <PhoneIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <a href={`tel:${site.phoneHref}`} className={linkClass}>
                {site.phone}
              </a>
            </li>
            <li className="flex gap-2">
              <MapPinIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <a href={site.mapsUrl} className={linkClass} rel="noopener noreferrer">
                {fullAddress}
              </a>
            </li>
            <li className="flex gap-2">
              <ClockIcon className="mt-0.5 h-4 w-4 shrink-0" />
              <span>
                Office: Monday to Sunday 9:00 AM to 9:00 PM (Central Time)
                <br />
                {`Notary services: ${serviceHoursText}`}
              </span>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-400 sm:px-6 lg:px-8">
          © {new Date().getFullYear()} {site.legalName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
