import { Link } from 'react-router-dom';

// Placeholder until the public-website work fills in the spec's footer.
export function Footer() {
  return (
    <footer className="bg-slate-900 text-slate-200">
      <nav aria-label="Footer" className="mx-auto flex max-w-7xl flex-wrap gap-4 px-4 py-8">
        <Link to="/terms-of-service">Terms of Service</Link>
        <Link to="/privacy-policy">Privacy Policy</Link>
        <Link to="/cookie-policy">Cookie Policy</Link>
        <Link to="/accessibility">Accessibility</Link>
        <Link to="/sitemap">Sitemap</Link>
        <Link to="/admin/chat">Admin Chat</Link>
      </nav>
    </footer>
  );
}
