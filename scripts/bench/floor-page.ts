/**
 * The Lighthouse floor (issue 16, goal 3; docs/decisions/051): a bare React 19 +
 * react-router 7 data-router page, server-rendered by its own process
 * (`node scripts/bench/floor.ts page <spec.json>`), showing the same text as the
 * app's page — its headings and paragraphs, unstyled — so that LCP and FCP can be
 * divided by what React and the router alone cost on the same machine, in the
 * same Lighthouse run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { entryKeyOf, type Manifest } from '../../src/build/route-chunks.ts';
import type { TextBlock } from './floor-page/page.ts';

export interface PageFloorSpec {
  /** The floor's built client (Vite output). */
  clientDir: string;
  /** URL of its entry script, e.g. "/assets/entry-client-abc.js". */
  entry: string;
  /** Per path: the text the app's page shows. */
  pages: Record<string, TextBlock[]>;
}

/** Builds the floor's client with this repository's Vite (no plugins: there is no JSX, no CSS). */
export async function buildPageFloor(outDir: string): Promise<{ clientDir: string; entry: string }> {
  const root = path.join(import.meta.dirname, 'floor-page');
  await build({
    root,
    configFile: false,
    // Only errors: react-router's "use client" directives are reported as warnings without the React plugin.
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      // As the app's build (vite.config.ts).
      modulePreload: { polyfill: false },
      rollupOptions: { input: path.join(root, 'entry-client.ts') },
    },
  });
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  return { clientDir: outDir, entry: `/${manifest[entryKeyOf(manifest)]!.file}` };
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function decode(text: string): string {
  return text.replace(/&(#x?[0-9a-f]+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return entities[name] ?? whole;
  });
}

/** The headings, paragraphs and list items inside the page's <main>, in order (list items become paragraphs). */
export function textBlocksOf(html: string): TextBlock[] {
  const main = /<main\b[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? html;
  const blocks: TextBlock[] = [];
  for (const m of main.matchAll(/<(h1|h2|h3|p|li)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    const text = decode(m[2]!.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ tag: m[1] === 'li' ? 'p' : (m[1] as TextBlock['tag']), text });
  }
  return blocks;
}
