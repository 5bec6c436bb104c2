/**
 * A page that hydrates as its server HTML (docs/decisions/051) asks for its entry
 * script only once the browser has painted it (docs/decisions/055-entry-after-first-paint.md):
 * the built template's `<script type="module">` and the `modulepreload` links of the
 * entry's imports leave the head, and an inline script at the end of the body adds
 * them back when the first contentful paint is reported, after the whole style
 * sheet when the page carries only its critical part (`stylesheet`, critical-styles.ts).
 *
 * The `load` event then comes before hydration: clicks on the page's buttons made in
 * between are held until it has hydrated, as on every page (hold-until-hydrated.ts).
 */
export function withEntryAfterFirstPaint(template: string, stylesheet?: string): string {
  const entry = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/.exec(template);
  if (!entry) return template;
  const preloads = [...template.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\s*/g)];
  let page = template.replace(entry[0], '');
  for (const link of preloads) page = page.replace(link[0], '');
  const files = JSON.stringify([...(stylesheet ? [stylesheet] : []), ...preloads.map((link) => link[1]!), entry[1]!]).replace(/</g, '\\u003c');
  // A module script: pages.ts gives it the response's nonce where a page is not allowed by hashes.
  return page.replace('</body>', () => `<script type="module">(${loaderSource})(${files})</script>\n  </body>`);
}

const loaderSource = loadEntryAfterFirstPaint.toString().replace(/\s+/g, ' ');

/**
 * Runs in the browser, inlined by its source (so it stays plain script: no imports,
 * nothing from outside its own body, no comments inside: its whitespace is collapsed).
 * `files`: the style sheet if any, the entry's imports, then the entry. Paint timing reports the first
 * contentful paint once it is on screen, and a task later the entry's request starts;
 * without paint timing, it starts in the frame after the first one.
 */
function loadEntryAfterFirstPaint(files: string[]): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    files.forEach((file, index) => {
      const last = index === files.length - 1;
      const element = document.createElement(last ? 'script' : 'link');
      if (element instanceof HTMLScriptElement) {
        element.type = 'module';
        element.src = file;
      } else if (element instanceof HTMLLinkElement) {
        element.rel = file.endsWith('.css') ? 'stylesheet' : 'modulepreload';
        element.href = file;
      }
      element.setAttribute('crossorigin', '');
      document.head.append(element);
    });
  };
  if (typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      setTimeout(start);
    }).observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(() => setTimeout(start));
  }
}
