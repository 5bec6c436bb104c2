import { describe, expect, it } from 'vitest';
import { withEntryAfterFirstPaint } from './entry-after-paint.ts';

describe('withEntryAfterFirstPaint', () => {
  const template = [
    '<html><head>',
    '<script type="module" fetchpriority="low" crossorigin src="/assets/index-a.js"></script>',
    '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/runtime-b.js">',
    '<style>p{}</style></head>',
    '<body><div id="root"></div></body></html>',
  ].join('\n');

  it('takes the entry and its preloads out of the head and names them, after the whole sheet, to the loader at the end of the body', () => {
    const page = withEntryAfterFirstPaint(template, '/assets/index-c.css');
    const head = page.slice(0, page.indexOf('</head>'));
    expect(head).not.toContain('<script');
    expect(head).not.toContain('modulepreload');
    expect(page).toMatch(/<script type="module">\(function loadEntryAfterFirstPaint\([^]*\)\(\["\/assets\/index-c\.css","\/assets\/runtime-b\.js","\/assets\/index-a\.js"\]\)<\/script>\n {2}<\/body>/);
  });

  it('names no sheet when the page links its whole sheet itself', () => {
    expect(withEntryAfterFirstPaint(template)).toContain('(["/assets/runtime-b.js","/assets/index-a.js"])');
  });

  it('leaves a template without an entry as it is', () => {
    const plain = '<html><head></head><body></body></html>';
    expect(withEntryAfterFirstPaint(plain)).toBe(plain);
  });
});
