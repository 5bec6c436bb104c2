import { parentPort } from 'node:worker_threads';
import { generateTestCertificate, readP12 } from './certificates.ts';
import { buildSealedPdf, inspectDocument } from './pdf.ts';
import type { SealJob } from './seal-pool.ts';

/**
 * The seal worker's thread (docs/decisions/061-seal-worker.ts): every heavy
 * step of the act — reading a customer's PDF or image, stripping, embedding,
 * signing, opening a PKCS#12 (its key derivation), making a test key — runs
 * here, one job at a time, under the memory limits seal-pool.ts gives it.
 * Errors go back by name and message only.
 */
async function run(job: SealJob): Promise<unknown> {
  switch (job.kind) {
    case 'inspect':
      return inspectDocument(job.input.source);
    case 'seal':
      return buildSealedPdf(job.input);
    case 'readCertificate':
      return readP12(Buffer.from(job.input.p12), job.input.password);
    case 'generateTestCertificate':
      return generateTestCertificate(job.input.name, job.input.now);
  }
}

parentPort!.on('message', async (message: { id: number; job: SealJob }) => {
  try {
    const result = await run(message.job);
    // A sealed PDF goes back without a copy when it owns its memory (pdf-lib's output does).
    const pdf = (result as { pdf?: Uint8Array }).pdf;
    const transfer = pdf && pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : [];
    parentPort!.postMessage({ id: message.id, ok: true, result }, transfer);
  } catch (error) {
    const { name, message: text } = error instanceof Error ? error : new Error(String(error));
    parentPort!.postMessage({ id: message.id, ok: false, error: { name, message: text } });
  }
});
