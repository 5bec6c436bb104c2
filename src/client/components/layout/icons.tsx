import type { ReactNode } from 'react';

/**
 * The layout's icons: lucide's drawings (ISC licence) as plain SVG, with the
 * markup lucide-react renders, so the header, footer and chat button carry no
 * icon runtime on every first load (docs/decisions/051). Pages keep lucide-react.
 */
function icon(name: string, drawing: ReactNode) {
  return function LayoutIcon({ className }: { className: string }) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width="24"
        height="24"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        className={`lucide lucide-${name} ${className}`}
        aria-hidden="true"
      >
        {drawing}
      </svg>
    );
  };
}

export const MenuIcon = icon('menu', [<path key="1" d="M4 5h16" />, <path key="2" d="M4 12h16" />, <path key="3" d="M4 19h16" />]);
export const CloseIcon = icon('x', [<path key="1" d="M18 6 6 18" />, <path key="2" d="m6 6 12 12" />]);
export const MessageCircleIcon = icon(
  'message-circle',
  <path d="M2.992 16.342a2 2 0 0 1 .094 1.167l-1.065 3.29a1 1 0 0 0 1.236 1.168l3.413-.998a2 2 0 0 1 1.099.092 10 10 0 1 0-4.777-4.719" />,
);
export const MailIcon = icon('mail', [<path key="1" d="m22 7-8.991 5.727a2 2 0 0 1-2.009 0L2 7" />, <rect key="2" x="2" y="4" width="20" height="16" rx="2" />]);
export const PhoneIcon = icon(
  'phone',
  <path d="M13.832 16.568a1 1 0 0 0 1.213-.303l.355-.465A2 2 0 0 1 17 15h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2A18 18 0 0 1 2 4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v3a2 2 0 0 1-.8 1.6l-.468.351a1 1 0 0 0-.292 1.233 14 14 0 0 0 6.392 6.384" />,
);
export const MapPinIcon = icon('map-pin', [
  <path key="1" d="M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0" />,
  <circle key="2" cx="12" cy="10" r="3" />,
]);
export const ClockIcon = icon('clock', [<circle key="1" cx="12" cy="12" r="10" />, <path key="2" d="M12 6v6l4 2" />]);
