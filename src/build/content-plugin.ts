import path from 'node:path';
import type { Plugin } from 'vite';
import type { BlogPost, LegalDocument } from '../shared/blog.ts';
import { readBlogPosts, readLegalDocuments } from './content.ts';

/**
 * Serves `content/` as modules (types in ./content-modules.d.ts):
 * - `virtual:blog-index`: `posts` (front matter only, newest first) and
 *   `postModules` (slug → dynamic import of that article), so the list page
 *   never carries article bodies and each article is its own chunk;
 * - `virtual:blog-post/<slug>`: one article with its HTML;
 * - `virtual:legal/<slug>`: one legal document with its HTML.
 * Everything is validated when the build starts: a bad file fails the build.
 */
export function contentPlugin(options: { root?: string } = {}): Plugin {
  const root = options.root ?? process.cwd();
  const contentDir = path.join(root, 'content');
  const publicDir = path.join(root, 'public');
  let posts: BlogPost[] | null = null;
  let legal: LegalDocument[] | null = null;

  const load = () => {
    posts ??= readBlogPosts(contentDir, publicDir);
    legal ??= readLegalDocuments(contentDir);
    return { posts, legal };
  };
  const json = (value: unknown) => JSON.stringify(value);

  return {
    name: 'notary-content',
    buildStart() {
      posts = null;
      legal = null;
      load();
      this.addWatchFile(path.join(contentDir, 'blog'));
      this.addWatchFile(path.join(contentDir, 'legal'));
    },
    configureServer(devServer) {
      devServer.watcher.add(contentDir);
      const onChange = (file: string) => {
        if (!file.startsWith(contentDir)) return;
        posts = null;
        legal = null;
        for (const mod of devServer.moduleGraph.idToModuleMap.values()) {
          if (mod.id?.startsWith('\0virtual:')) devServer.moduleGraph.invalidateModule(mod);
        }
        devServer.ws.send({ type: 'full-reload' });
      };
      devServer.watcher.on('change', onChange);
      devServer.watcher.on('add', onChange);
      devServer.watcher.on('unlink', onChange);
    },
    resolveId(id) {
      if (id === 'virtual:blog-index' || id.startsWith('virtual:blog-post/') || id.startsWith('virtual:legal/')) {
        return `\0${id}`;
      }
      return null;
    },
    load(id) {
      if (!id.startsWith('\0virtual:')) return null;
      const name = id.slice(1);
      const content = load();
      if (name === 'virtual:blog-index') {
        const summaries = content.posts.map(({ html: _html, ...summary }) => summary);
        const loaders = content.posts
          .map((p) => `  ${json(p.slug)}: () => import(${json(`virtual:blog-post/${p.slug}`)}).then((m) => m.default),`)
          .join('\n');
        return `export const posts = ${json(summaries)};\nexport const postModules = {\n${loaders}\n};\n`;
      }
      if (name.startsWith('virtual:blog-post/')) {
        const post = content.posts.find((p) => p.slug === name.slice('virtual:blog-post/'.length));
        if (!post) this.error(`No blog post ${name}`);
        return `export default ${json(post)};\n`;
      }
      if (name.startsWith('virtual:legal/')) {
        const doc = content.legal.find((d) => d.slug === name.slice('virtual:legal/'.length));
        if (!doc) this.error(`No legal document content/legal/${name.slice('virtual:legal/'.length)}.md`);
        return `export default ${json(doc)};\n`;
      }
      return null;
    },
  };
}
