import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Document Management', description: 'Document Management — placeholder.', path: '/document-management' }),
};

export function Component() {
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-16">
      <h1 className="text-4xl font-bold">Document Management</h1>
    </main>
  );
}
