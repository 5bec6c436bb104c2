import { createElement, useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { cx } from '../../lib/cx.ts';
import { prefersReducedMotion } from './motion.ts';

type RevealState = 'static' | 'hidden' | 'revealing';

/**
 * Fades its content in, `index` x 120 ms after it scrolls into view. The
 * server-rendered HTML is always visible: only once the script runs are
 * elements that are still below the fold hidden, and never under
 * prefers-reduced-motion or without IntersectionObserver.
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
  const [state, setState] = useState<RevealState>('static');

  useEffect(() => {
    const element = ref.current;
    if (!element || prefersReducedMotion() || typeof IntersectionObserver === 'undefined') return;
    // Already on screen when the script arrives: leave it alone, no flash.
    if (element.getBoundingClientRect().top < window.innerHeight) return;
    setState('hidden');
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setState('revealing');
          observer.disconnect();
        }
      },
      { rootMargin: '0px 0px -8% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const style: CSSProperties | undefined = state === 'revealing' ? { transitionDelay: `${index * 120}ms` } : undefined;
  return createElement(
    as,
    {
      ref,
      'data-reveal': state,
      // For reveal-observer.ts, which does the same over server HTML.
      'data-reveal-index': index || undefined,
      style,
      className: cx(
        // Hiding is instant (the element is off screen); only the reveal animates.
        state === 'revealing' && 'transition-[opacity,translate] duration-700 ease-out',
        state === 'hidden' && 'translate-y-6 opacity-0',
        className,
      ),
    },
    children,
  );
}
