// Modules produced by src/build/content-plugin.ts.
declare module 'virtual:blog-index' {
  export const posts: import('../shared/blog.ts').BlogPostSummary[];
  export const postModules: Record<string, () => Promise<import('../shared/blog.ts').BlogPost>>;
}

declare module 'virtual:legal/*' {
  const document: import('../shared/blog.ts').LegalDocument;
  export default document;
}

declare module 'virtual:blog-post/*' {
  const post: import('../shared/blog.ts').BlogPost;
  export default post;
}
