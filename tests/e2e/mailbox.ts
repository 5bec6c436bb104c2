import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { leafParts, parseMime, type ParsedPart } from '../helpers/smtp.ts';

/**
 * The e2e server runs with the embedded mailbox: every email it sends is an
 * .eml file under DATA_DIR/mail. Journeys read them back.
 */
export interface Eml {
  file: string;
  headers: Record<string, string>;
  text: string;
  html: string;
  parts: ParsedPart[];
}

export function readMailbox(): Eml[] {
  const dir = path.join(inject('serverDataDir'), 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const parsed = parseMime(readFileSync(path.join(dir, file), 'utf8'));
    const parts = leafParts(parsed);
    return {
      file,
      headers: parsed.headers,
      text: parts.find((p) => p.contentType.startsWith('text/plain'))?.body ?? '',
      html: parts.find((p) => p.contentType.startsWith('text/html'))?.body ?? '',
      parts,
    };
  });
}

/** Waits (the outbox worker polls every few seconds) for the one message matching. */
export async function waitForMail(match: (mail: Eml) => boolean, timeout = 20_000): Promise<Eml> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const found = readMailbox().find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  const seen = readMailbox().map((m) => m.headers.subject);
  throw new Error(`No matching email within ${timeout} ms in ${path.join(inject('serverDataDir'), 'mail')}; saw: ${JSON.stringify(seen)}`);
}
