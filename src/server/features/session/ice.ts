import { createHmac } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { IceServer } from '../../../shared/session.ts';

/**
 * ICE servers for one participant, from configuration only (nothing hard-coded
 * to a public STUN host). TURN credentials follow coturn's `use-auth-secret`
 * scheme (the "TURN REST API"): username `expiry:participant`, credential
 * base64(HMAC-SHA1(secret, username)). coturn recomputes the HMAC with the same
 * `static-auth-secret` and refuses the username once `expiry` (unix seconds)
 * has passed, so a leaked credential is useless after the TTL.
 * With nothing configured the list is empty: browsers use host candidates,
 * which connect on one machine or a LAN.
 */
export function iceServersFor(config: Pick<Config, 'STUN_URLS' | 'TURN_URLS' | 'TURN_SECRET' | 'TURN_CREDENTIAL_TTL_SECONDS'>, participant: string, now: Date): IceServer[] {
  const list = (value: string | undefined) => (value ?? '').split(',').map((url) => url.trim()).filter(Boolean);
  const servers: IceServer[] = [];
  const stun = list(config.STUN_URLS);
  if (stun.length) servers.push({ urls: stun });
  const turn = list(config.TURN_URLS);
  if (turn.length && config.TURN_SECRET) {
    servers.push({ urls: turn, ...turnCredential(config.TURN_SECRET, participant, now, config.TURN_CREDENTIAL_TTL_SECONDS) });
  }
  return servers;
}

export function turnCredential(secret: string, participant: string, now: Date, ttlSeconds: number): { username: string; credential: string } {
  const expiry = Math.floor(now.getTime() / 1000) + ttlSeconds;
  // coturn splits on the first ':'; the participant part is only a label.
  const username = `${expiry}:${participant.replace(/:/g, '-')}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}
