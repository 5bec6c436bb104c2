import type { Config } from '../../config.ts';
import { createClamdScanner } from './clamd.ts';
import type { VirusScanner } from './types.ts';

export type { ScanResult, VirusScanner } from './types.ts';

/** ClamAV when CLAMAV_HOST is set; otherwise no scanner (documents are marked `skipped`). */
export function createScanner(config: Config): VirusScanner | undefined {
  if (!config.CLAMAV_HOST) return undefined;
  return createClamdScanner({ host: config.CLAMAV_HOST, port: config.CLAMAV_PORT });
}
