import { Link2, Mail } from 'lucide-react';
import { useEffect, useState, type SVGProps } from 'react';
import { toast } from '../ui/toast.tsx';

/**
 * Share links are plain URLs to each network's share page: nothing is loaded
 * from them until the visitor clicks. The page URL is only known in the
 * browser, so the links are completed after hydration.
 */
export function ShareButtons({ title, path }: { title: string; path: string }) {
  const [url, setUrl] = useState(path);
  useEffect(() => setUrl(new URL(path, window.location.origin).toString()), [path]);

  const encodedUrl = encodeURIComponent(url);
  const encodedTitle = encodeURIComponent(title);
  const links = [
    { label: 'Share on X', icon: XLogo, href: `https://twitter.com/intent/tweet?url=${encodedUrl}&text=${encodedTitle}` },
    { label: 'Share on LinkedIn', icon: LinkedInLogo, href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodedUrl}` },
    { label: 'Share on Facebook', icon: FacebookLogo, href: `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}` },
    { label: 'Share by email', icon: Mail, href: `mailto:?subject=${encodedTitle}&body=${encodedUrl}` },
  ];

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: 'The article link is on your clipboard.', variant: 'success' });
    } catch {
      toast({ title: 'Could not copy the link', description: url, variant: 'destructive' });
    }
  };

  const itemClass =
    'inline-flex h-11 w-11 items-center justify-center rounded-full border border-slate-300 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';
  return (
    <div className="flex flex-wrap items-center gap-3">
      <span className="text-sm font-semibold text-slate-900">Share this article</span>
      <ul className="flex gap-2">
        <li>
          <button type="button" onClick={copy} className={itemClass} aria-label="Copy link">
            <Link2 aria-hidden="true" className="h-5 w-5" />
          </button>
        </li>
        {links.map((link) => (
          <li key={link.label}>
            <a href={link.href} target="_blank" rel="noopener noreferrer" className={itemClass} aria-label={`${link.label} (opens in a new tab)`}>
              <link.icon aria-hidden="true" className="h-5 w-5" />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

// Lucide no longer ships brand marks; these are simple single-path glyphs.
function XLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" {...props}>
      <path d="M17.8 3h3.1l-6.8 7.7 8 10.3h-6.2l-4.9-6.3L5.4 21H2.3l7.2-8.3L1.8 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.4 4.7H5.6z" />
    </svg>
  );
}

function LinkedInLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" {...props}>
      <path d="M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.75h4V21H3zm6.5 0h3.8v1.6h.05c.53-1 1.83-2.05 3.77-2.05 4.03 0 4.78 2.65 4.78 6.1V21h-4v-4.9c0-1.17-.02-2.67-1.63-2.67-1.63 0-1.88 1.27-1.88 2.59V21h-4z" />
    </svg>
  );
}

function FacebookLogo(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" {...props}>
      <path d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.87.25-1.46 1.5-1.46h1.6V4.45A21 21 0 0 0 14.3 4.3c-2.3 0-3.8 1.4-3.8 3.96V10.5H7.9v3h2.6V21z" />
    </svg>
  );
}
