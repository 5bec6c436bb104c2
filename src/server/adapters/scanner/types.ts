import type { Readable } from 'node:stream';

export type ScanResult = { clean: true } | { clean: false; signature: string };

/**
 * A virus scanner for uploaded documents. `scan` throws when the scanner
 * cannot give a verdict (unreachable, timeout): the caller must then treat
 * the file as not yet usable rather than as clean.
 */
export interface VirusScanner {
  readonly name: string;
  scan(input: Readable | Buffer): Promise<ScanResult>;
  /** Resolves when the scanner answers (readiness). */
  ping(): Promise<void>;
}
