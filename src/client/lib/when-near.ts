/** Resolves when `element` is within a screen of the viewport, or is focused or pressed (also for server-HTML islands). */
export function whenElementNear(element: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    if (typeof IntersectionObserver === 'undefined') return resolve();
    const done = () => {
      observer.disconnect();
      element.removeEventListener('focusin', done);
      element.removeEventListener('pointerdown', done);
      resolve();
    };
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && done(), {
      rootMargin: '100% 0px 100% 0px',
    });
    observer.observe(element);
    element.addEventListener('focusin', done);
    element.addEventListener('pointerdown', done);
  });
}
