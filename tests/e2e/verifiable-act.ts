import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../src/server/deps.ts';
import { takeCheckpoint } from '../../src/server/features/journal/anchor.ts';
import { appendJournalEntry, type JournalActData } from '../../src/server/features/journal/service.ts';
import { generateTestCertificate } from '../../src/server/features/notarial-act/certificates.ts';
import { buildSealedPdf } from '../../src/server/features/notarial-act/pdf.ts';
import { formatVerificationCode } from '../../src/shared/verification.ts';

/** A sealed act the /verify journey checks: its PDF on disk, its code, seeded straight into the journal. */
export interface VerifiableAct {
  file: string;
  code: string;
}

const fixtures = new URL('../fixtures/', import.meta.url);

/**
 * Seals the sample PDF as the act would (real certificate page with its
 * verification link, real signature) and journals it — without clicking
 * through a session. Called by global-setup while no server holds the database.
 */
export async function seedVerifiableAct(deps: Deps, notaryId: string, dir: string): Promise<VerifiableAct> {
  const code = formatVerificationCode(randomBytes(8));
  const performedAt = new Date();
  const act = {
    type: 'jurat' as const,
    performedAt,
    timeZone: 'America/Chicago',
    signerName: 'Vera Signer',
    documentTitle: 'affidavit.pdf',
    notaryName: 'Nia Notary',
    commissionNumber: 'IA-424242',
    commissionExpiresOn: '2030-01-31',
    commissionState: 'Iowa',
    county: 'Polk',
    verification: { code, url: `${deps.config.publicUrl}/verify?code=${code}` },
  };
  const certificate = generateTestCertificate(act.notaryName, performedAt);
  const sealed = await buildSealedPdf({
    source: { bytes: readFileSync(new URL('sample.pdf', fixtures)), contentType: 'application/pdf' },
    fields: [{ kind: 'signature', page: 1, box: { x: 0.35, y: 0.77, width: 0.3, height: 0.06 }, png: readFileSync(new URL('sample.png', fixtures)) }],
    act,
    certificate: { p12: certificate.p12, password: certificate.password },
  });
  const data: JournalActData = {
    actType: act.type,
    documentTitle: act.documentTitle,
    pageCount: sealed.pageCount,
    signerName: act.signerName,
    signerAddress: null,
    identity: { provider: 'test', verificationId: 'seeded', idType: 'driving_license', issuingState: 'IA', expiresOn: '2031-01-01' },
    feeCents: 2500,
    currency: 'usd',
    recordingRef: null,
    sealedSha256: sealed.sha256,
    notaryName: act.notaryName,
    bookingReference: 'NOTARY-SEEDED01',
    verificationCode: code,
    commissionNumber: act.commissionNumber,
    commissionState: act.commissionState,
    commissionExpiresOn: act.commissionExpiresOn,
    signatureLevel: sealed.level,
    timestampAuthority: null,
  };
  await deps.db.transaction((tx) => appendJournalEntry(tx, { notaryId, bookingId: null, kind: 'act', performedAt, data: { ...data } }));
  await takeCheckpoint(deps);
  const file = path.join(dir, 'notarized-affidavit.pdf');
  writeFileSync(file, sealed.pdf);
  return { file, code };
}
