import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';

/**
 * The one digest every bearer token is stored as (staff sessions and
 * invitations, manage links, upload links, chat visitors): SHA-256, hex. A
 * leaked table holds no usable token; a token is looked up by its digest.
 */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
