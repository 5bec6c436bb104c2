import { describe, expect, it } from 'vitest';
import { createCriticalStyles } from './critical-styles.ts';

describe('createCriticalStyles', () => {
  const critical = createCriticalStyles(process.cwd());
  const page = (style: string) =>
    `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><style>${style}</style></head><body><div id="root"><p class="used md:used-wide">Hi</p><img src="/a.svg" alt=""/></div></body></html>`;

  it("keeps the rules the page's HTML uses, media queries included, and leaves every other byte as rendered", async () => {
    const whole = '.used{color:red}.unused{color:blue}@media (min-width:48rem){.md\\:used-wide{width:100%}.md\\:unused{width:50%}}';
    const out = await critical(page(whole));
    const style = /<style>([\s\S]*)<\/style>/.exec(out)![1]!;
    expect(style).toContain('.used{color:red}');
    expect(style).toContain('.md\\:used-wide{width:100%}');
    expect(style).not.toContain('unused');
    expect(out.replace(style, '')).toBe(page(''));
  });

  it('leaves a page without an inline sheet untouched', async () => {
    const html = '<!doctype html><html><head></head><body><p class="used">Hi</p></body></html>';
    expect(await critical(html)).toBe(html);
  });
});
