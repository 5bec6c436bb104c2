import { Link } from 'react-router-dom';
import { site } from '../../../shared/site.ts';

// Placeholder until the public-website work fills in the spec's header.
export function Header() {
  return (
    <header className="sticky top-0 z-50 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center justify-between px-4 py-4">
        <Link to="/" className="text-xl font-bold text-blue-800">
          {site.brand}
        </Link>
        <Link to="/schedule">Schedule a Notary</Link>
      </nav>
    </header>
  );
}
