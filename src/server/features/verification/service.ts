import { DomainError } from '../../errors.ts';
import type { RateRule } from '../../rate-limit.ts';
import type { Deps } from '../../deps.ts';
import { normalizeVerificationCode, verifyMessages, type VerifiedAct, type VerifyInput, type VerifyResult } from '../../../shared/verification.ts';
import { findActForVerification, type ActForVerification } from '../journal/service.ts';
import { signatureLevelLabels, type SignatureLevel } from '../../../shared/notarial-act.ts';

/** "PAdES B-LTA (long-term: …)"; an entry written before the PAdES levels keeps its own words. */
function levelText(level: string | null): string | null {
  if (!level) return null;
  return level in signatureLevelLabels ? `PAdES ${level} (${signatureLevelLabels[level as SignatureLevel]})` : level;
}

/**
 * The public verification page (docs/decisions/091-public-verification.md).
 * The browser sends the SHA-256 of the PDF the visitor dropped (the file
 * never leaves their machine) and/or the code printed on it; the answer comes
 * from the journal, which keeps every sealed copy's hash after the copy itself
 * is deleted. Shows the notary and the act, never the signer.
 */
export const verifyRate: RateRule = { name: 'verify', limit: 30, windowSeconds: 60 };

function view(act: ActForVerification): VerifiedAct {
  return {
    notaryName: act.notaryName,
    commissionNumber: act.commissionNumber,
    commissionState: act.commissionState,
    commissionExpiresOn: act.commissionExpiresOn,
    actType: act.actType,
    performedAt: act.performedAt.toISOString(),
    signatureLevel: levelText(act.signatureLevel),
    timestampAuthority: act.timestampAuthority,
    verificationCode: act.verificationCode,
  };
}

export async function verifyDocument(deps: Deps, input: VerifyInput): Promise<VerifyResult> {
  const code = input.code ? normalizeVerificationCode(input.code) : null;
  if (input.code && !code) throw new DomainError('BAD_REQUEST', verifyMessages.badCode);
  if (code) {
    const act = await findActForVerification(deps.db, { code });
    if (act) {
      if (!input.sha256) return { outcome: 'intact', act: view(act), checkedBy: 'code' };
      return act.sealedSha256 === input.sha256 ? { outcome: 'intact', act: view(act), checkedBy: 'file' } : { outcome: 'changed', act: view(act) };
    }
  }
  if (input.sha256) {
    const act = await findActForVerification(deps.db, { sha256: input.sha256 });
    if (act) return { outcome: 'intact', act: view(act), checkedBy: 'file' };
  }
  return { outcome: 'unknown' };
}
