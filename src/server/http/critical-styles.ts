import type Beasties from 'beasties';

/**
 * The style sheet a server-HTML page needs for its first paint
 * (docs/decisions/055-entry-after-first-paint.md): the public template carries the
 * whole sheet inline (pages.ts); of it, only the rules that match something in this
 * page's HTML stay (Beasties, matching each rule's selector against the page's DOM,
 * media queries and the keyframes used kept). The whole sheet follows after the
 * first paint, with the entry (entry-after-paint.ts), for what only appears later
 * (the chat panel, client-side navigations).
 *
 * Beasties serializes the document again; only its `<style>` is taken, so the
 * page's other bytes stay as rendered. Run once per page, when it enters the page
 * cache (~80–150 ms for the home page). Beasties (~80 ms to import) is loaded on
 * the first page that needs it, not at start (decision 048's start-up budget).
 */
export function createCriticalStyles(clientDir: string): (html: string) => Promise<string> {
  let beasties: Promise<Beasties> | undefined;
  const load = async () => {
    const { default: Engine } = await import('beasties');
    return new Engine({
      path: clientDir,
      publicPath: '/',
      external: false,
      reduceInlineStyles: true,
      pruneSource: false,
      fonts: false,
      keyframes: 'critical',
      compress: true,
      logLevel: 'silent',
    });
  };
  const inlineStyle = /<style>([\s\S]*?)<\/style>/;
  return async (html) => {
    const whole = inlineStyle.exec(html);
    if (!whole) return html;
    beasties ??= load();
    const critical = inlineStyle.exec(await (await beasties).process(html))?.[1];
    if (critical === undefined || critical.includes('</style')) return html;
    return `${html.slice(0, whole.index)}<style>${critical}</style>${html.slice(whole.index + whole[0].length)}`;
  };
}
