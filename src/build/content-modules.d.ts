// Modules produced by src/build/content-plugin.ts.
declare module 'virtual:blog-index' {
  import type { BlogPost, BlogPostSummary } from '../shared/blog.ts';
  export const posts: BlogPostSummary[];
  export const postModules: Record<string, () => Promise<BlogPost>>;
}

declare module 'virtual:legal/*' {
  import type { LegalDocument } from '../shared/blog.ts';
  const document: LegalDocument;
  export default document;
}

declare module 'virtual:blog-post/*' {
  import type { BlogPost } from '../shared/blog.ts';
  const post: BlogPost;
  export default post;
}
