import { memo, Suspense, use, type ComponentType, type ReactNode } from 'react';
import { whenElementNear } from '../../lib/when-near.ts';

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
