import { createElement as h } from 'react';
import { useLoaderData } from 'react-router-dom';

/** One block of a page's text, as the app's page shows it (read by scripts/bench/floor-page.ts). */
export interface TextBlock {
  tag: 'h1' | 'h2' | 'h3' | 'p';
  text: string;
}

/** The floor's one route: the app page's text, unstyled, in the browser's default font. */
export function Component() {
  const blocks = useLoaderData() as TextBlock[];
  return h('main', null, ...blocks.map((block, i) => h(block.tag, { key: i }, block.text)));
}
