import type { Config } from '../../config.ts';
import { createIdologyKbaProvider } from './idology.ts';
import { createTestKbaProvider } from './test-provider.ts';
import type { KbaProvider } from './types.ts';

export type { KbaOutcome, KbaProvider, KbaQuestion, KbaStarted } from './types.ts';

/** IDology ExpectID IQ when its credentials are set, otherwise the TEST MODE provider. */
export function createKbaProvider(config: Config): KbaProvider {
  if (config.kbaMode === 'idology') {
    return createIdologyKbaProvider({ username: config.IDOLOGY_USERNAME!, password: config.IDOLOGY_PASSWORD!, apiBase: config.IDOLOGY_API_BASE });
  }
  return createTestKbaProvider();
}
