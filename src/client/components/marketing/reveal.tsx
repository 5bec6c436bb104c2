import { createElement, useEffect, useRef, type ReactNode } from 'react';
import { observeElements } from './reveal-observer.ts';

/**
 * Fades its content in, `index` x 120 ms after it scrolls into view. The
 * server-rendered HTML is always visible: only once the script runs are
 * elements that are still below the fold hidden, and never under
 * prefers-reduced-motion or without IntersectionObserver. The rule is
 * reveal-observer.ts's, which does the same over pages shown as their server
 * HTML; it sets `data-reveal` and the classes on the element itself.
 */
export function Reveal({
  as = 'div',
  index = 0,
  className,
  children,
}: {
  as?: 'div' | 'li';
  index?: number;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => (ref.current ? observeElements([ref.current]) : undefined), []);
  return createElement(as, { ref, 'data-reveal': 'static', 'data-reveal-index': index || undefined, className }, children);
}
