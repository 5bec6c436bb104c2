import { memo, Suspense, use, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code downloads only when the visitor gets near it.
 *
 * The contact forms bring validation schemas and the API client (about 45 KB
 * gzipped): too much for the first load of a marketing page, for a form far
 * below the fold. The server still renders the real form (`preload()` in the
 * route loader), so the HTML is complete; in the browser the form's Suspense
 * boundary stays as server HTML until its section comes within reach (or is
 * touched), and is then hydrated. `memo` keeps parent re-renders from forcing
 * the boundary to client-render before that.
 */
export function deferUntilVisible(
  load: () => Promise<ComponentType>,
  options: { anchorId: string; fallback: ReactNode },
): { Component: ComponentType; preload: () => Promise<unknown> } {
  let Loaded: ComponentType | undefined;
  let loading: Promise<unknown> | undefined;
  let waiting: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      Loaded = component;
    }));

  function Gate() {
    if (!Loaded) use((waiting ??= whenNear(options.anchorId).then(preload)));
    const Form = Loaded;
    return Form ? <Form /> : null;
  }

  const Component = memo(function Deferred() {
    return (
      <Suspense fallback={options.fallback}>
        <Gate />
      </Suspense>
    );
  });
  return { Component, preload };
}

/** Resolves when the element is within a screen of the viewport, or is focused or pressed. */
function whenNear(id: string): Promise<void> {
  return new Promise((resolve) => {
    let tries = 0;
    const attach = () => {
      const element = document.getElementById(id);
      if (element) return void whenElementNear(element).then(resolve);
      // Client-side navigation: the section is committed after this render.
      if (tries++ < 60) requestAnimationFrame(attach);
      else resolve();
    };
    attach();
  });
}

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
