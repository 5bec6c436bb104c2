import { islandProps } from '../server-html.ts';
import { verifyCopy } from '../../shared/verification.ts';
import { VerifyForm } from '../features/verification/verify-form.tsx';
import type { RouteHandle } from '../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({
    title: verifyCopy.title,
    description: 'Check a document notarized with NotaryOnline: drop the PDF or type the verification code printed on it to see whether it is intact and who notarized it.',
    path: '/verify',
  }),
};

/**
 * Public verification (docs/decisions/091-public-verification.md): a server-HTML
 * page whose form is an island. Says what the check shows and what it does not.
 */
export function Component() {
  return (
    <main id="main" className="bg-slate-50">
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{verifyCopy.title}</h1>
        <p className="mt-4 text-lg text-slate-700">
          Received a document notarized with NotaryOnline? Check it here. Choose or drop the PDF, type the verification code printed at the foot of its certificate
          page, or both. We compare it with the record in our notary journal, which keeps a fingerprint (SHA-256) of every document we seal.
        </p>
        <div className="mt-8" {...islandProps('verify-form', {})}>
          <VerifyForm />
        </div>
        <div className="mt-10 space-y-3 text-slate-700">
          <h2 className="text-xl font-semibold text-slate-900">What the check tells you</h2>
          <p>
            <strong>This document is intact</strong> means the file is byte for byte the one the notary sealed. We show the notary, their commission and the act — never the
            signer’s personal details.
          </p>
          <p>
            Your PDF reader also shows the notary’s digital signature; any change to the file makes it invalid there too. A paper copy can be checked by its code: compare
            the details shown with the paper.
          </p>
        </div>
      </div>
    </main>
  );
}
