import { describe, expect, it } from 'vitest';
import { fileTooLargeMessage, unsupportedFileMessage } from '../../../shared/booking.ts';
import { precheckFile, uploadFailedMessage, UploadError, uploadWithRetry } from './upload.ts';

const ok = { document: { id: 'd', name: 'a.pdf', sizeBytes: 3, contentType: 'application/pdf' as const } };

describe('precheckFile', () => {
  it('uses the spec messages for type and size', () => {
    expect(precheckFile({ name: 'notes.docx', size: 10 })).toBe(unsupportedFileMessage('notes.docx'));
    expect(precheckFile({ name: 'big.PDF', size: 10_485_761 })).toBe(fileTooLargeMessage('big.PDF'));
    expect(precheckFile({ name: 'ok.jpeg', size: 10_485_760 })).toBeNull();
  });
});

describe('uploadWithRetry', () => {
  it('reports 10 at start, 25 on attempt 1, real progress above it, 100 when done', async () => {
    const seen: number[] = [];
    await uploadWithRetry(
      {
        createTarget: async () => ({ uploadUrl: '/api/uploads/t1' }),
        put: async (_url, onProgress) => {
          onProgress(0.5);
          onProgress(1);
          return ok;
        },
      },
      (p) => seen.push(p),
    );
    expect(seen).toEqual([10, 25, 62, 99, 100]);
  });

  it('tries twice with a fresh upload URL and a 500 ms pause, floor 50 on the second attempt', async () => {
    const seen: number[] = [];
    const pauses: number[] = [];
    const urls: string[] = [];
    let calls = 0;
    await uploadWithRetry(
      {
        createTarget: async () => ({ uploadUrl: `/api/uploads/t${++calls}` }),
        put: async (url) => {
          urls.push(url);
          if (urls.length === 1) throw new UploadError(uploadFailedMessage, true);
          return ok;
        },
        sleep: async (ms) => void pauses.push(ms),
      },
      (p) => seen.push(p),
    );
    expect(urls).toEqual(['/api/uploads/t1', '/api/uploads/t2']);
    expect(pauses).toEqual([500]);
    expect(seen).toEqual([10, 25, 50, 100]);
  });

  it('gives up after two attempts', async () => {
    let attempts = 0;
    const upload = uploadWithRetry(
      { createTarget: async () => ({ uploadUrl: '/u' }), put: async () => (attempts++, Promise.reject(new Error('network'))), sleep: async () => {} },
      () => {},
    );
    await expect(upload).rejects.toThrow(uploadFailedMessage);
    expect(attempts).toBe(2);
  });

  it('does not retry a refusal the server explained (e.g. 415)', async () => {
    let attempts = 0;
    const message = unsupportedFileMessage('fake.pdf');
    const upload = uploadWithRetry(
      { createTarget: async () => ({ uploadUrl: '/u' }), put: async () => (attempts++, Promise.reject(new UploadError(message, false))), sleep: async () => {} },
      () => {},
    );
    await expect(upload).rejects.toThrow(message);
    expect(attempts).toBe(1);
  });
});
