/** The logo mark (same drawing as public/favicon.svg); decorative next to the brand name. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <rect width="32" height="32" rx="7" fill="#1d4ed8" />
      <path d="M9 22V10h3l8 8.5V10h3v12h-3l-8-8.5V22z" fill="#fff" />
    </svg>
  );
}
