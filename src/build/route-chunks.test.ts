import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRoutes, routeOnlyFiles, routePreloadsMarker, type Manifest } from './route-chunks.ts';
import { lowPriorityScripts } from './route-preload-plugin.ts';

const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'], dynamicImports: ['src/client/pages/home.tsx'] },
  '_react.js': { file: 'assets/react.js' },
  '_sections.js': { file: 'assets/sections.js', imports: ['_react.js', 'index.html'] },
  '_site.css': { file: 'assets/site.css' },
  'src/client/pages/home.tsx': { file: 'assets/home.js', isDynamicEntry: true, imports: ['index.html', '_sections.js', '_react.js', '_site.css'] },
};

describe('route chunks', () => {
  it('reads every route of routes.tsx with its module', () => {
    const routes = readRoutes(readFileSync('src/client/routes.tsx', 'utf8'));
    expect(routes).toContainEqual({ route: '/', module: 'src/client/pages/home.tsx' });
    expect(routes).toContainEqual({ route: '/blog/:slug', module: 'src/client/pages/blog/blog-article.tsx' });
    expect(routes).toContainEqual({ route: '/admin/login', module: 'src/client/pages/admin/auth.tsx' });
    expect(routes).toContainEqual({ route: '/*', module: 'src/client/pages/not-found.tsx' });
  });

  it("a route's own files: its chunk and static imports, minus what the entry loads", () => {
    expect(routeOnlyFiles(manifest, 'src/client/pages/home.tsx')).toEqual(['assets/home.js', 'assets/sections.js']);
    expect(routeOnlyFiles(manifest, 'src/client/pages/not-found.tsx')).toEqual([]);
  });

  it('built pages fetch their scripts at low priority and mark where route preloads go', () => {
    const html = lowPriorityScripts(
      [
        '<head>',
        '<script type="module" crossorigin src="/assets/index.js"></script>',
        '<link rel="modulepreload" crossorigin href="/assets/react.js">',
        '<link rel="stylesheet" crossorigin href="/assets/site.css">',
        '</head>',
      ].join('\n'),
    );
    expect(html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index.js"></script>');
    expect(html).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/react.js">');
    expect(html.indexOf(routePreloadsMarker)).toBeGreaterThan(html.indexOf('react.js'));
    expect(html.indexOf(routePreloadsMarker)).toBeLessThan(html.indexOf('stylesheet'));
  });
});
