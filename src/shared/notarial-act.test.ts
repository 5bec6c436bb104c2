import { describe, expect, it } from 'vitest';
import { notarizedFileName } from './notarial-act.ts';

describe('notarized file names', () => {
  it('are "{original name} (notarized).pdf", whatever the original was', () => {
    expect(notarizedFileName('id-front.jpg')).toBe('id-front (notarized).pdf');
    expect(notarizedFileName('scan.JPEG')).toBe('scan (notarized).pdf');
    expect(notarizedFileName('affidavit.pdf')).toBe('affidavit (notarized).pdf');
    expect(notarizedFileName('Deed of trust')).toBe('Deed of trust (notarized).pdf');
  });
});
