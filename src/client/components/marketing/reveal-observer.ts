import { prefersReducedMotion } from './motion.ts';

/**
 * `<Reveal>`'s fade-ins (reveal.tsx, docs/product.md §3.3) over a page shown as its server HTML
 * (docs/decisions/051): the same rule and classes, on the elements Reveal marks with
 * `data-reveal`, without the page's React code, and for `<Reveal>` itself. Returns a function that stops observing.
 * Part of the entry (page-outlet.tsx): keep it small.
 */
export function observeReveals(root: ParentNode): () => void {
  return observeElements(root.querySelectorAll<HTMLElement>('[data-reveal="static"]'));
}

/** The fade-in rule on these elements: hidden once script runs if still below the fold, revealed on approach. */
export function observeElements(elements: Iterable<HTMLElement>): () => void {
  if (prefersReducedMotion() || typeof IntersectionObserver === 'undefined') return () => {};
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const element = entry.target as HTMLElement;
        observer.unobserve(element);
        element.dataset.reveal = 'revealing';
        element.style.transitionDelay = `${Number(element.dataset.revealIndex ?? 0) * 120}ms`;
        element.classList.remove('translate-y-6', 'opacity-0');
        element.classList.add('transition-[opacity,translate]', 'duration-700', 'ease-out');
      }
    },
    { rootMargin: '0px 0px -8% 0px' },
  );
  for (const element of elements) {
    // Already on screen when the script arrives: left alone, no flash.
    if (element.getBoundingClientRect().top < window.innerHeight) continue;
    // Hiding is instant (the element is off screen); only the reveal animates.
    element.dataset.reveal = 'hidden';
    element.classList.add('translate-y-6', 'opacity-0');
    observer.observe(element);
  }
  return () => observer.disconnect();
}
