/**
 * The refusals the seal worker can give, by name, so they cross the thread
 * boundary (a worker's error arrives as { name, message }) and the service
 * turns each into the DomainError the notary or admin reads. No heavy
 * imports: the request thread loads this, never pdf-lib or forge.
 */
export class CertificateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateError';
  }
}

/** The customer's file cannot be sealed as it is: `why` says what is wrong, in the notary's words. */
export class NotNotarizableError extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'NotNotarizableError';
  }
}

export const certificateMessages = {
  notPkcs12: 'This is not a PKCS#12 file, or the password is wrong.',
  keyAndCertificate: 'The PKCS#12 file must hold the private key and its certificate.',
  tooManyIterations: 'This PKCS#12 file asks for more than 1,000,000 key-derivation iterations, which we do not run. Export it again with the default settings (for example OpenSSL’s 2,048).',
  expired: 'This certificate has expired.',
  notYetValid: 'This certificate is not valid yet.',
  sealExpired: 'Your signing certificate has expired; a document cannot be sealed with it. An admin must upload a new certificate in the console.',
  sealNotYetValid: 'Your signing certificate is not valid yet; a document cannot be sealed with it.',
  sealRevoked: 'Your signing certificate has been revoked by its issuer; a document cannot be sealed with it. An admin must upload a new certificate in the console.',
  revocationUnknown: 'We could not confirm with the certificate’s issuer that your signing certificate is still valid (no revocation answer). Please try again in a few minutes.',
  noSigningUsage: 'This certificate is not for signing (its key usage has neither digital signature nor non-repudiation).',
} as const;

/** What the notary reads for each way a customer's file fails. */
export const documentProblems = {
  encrypted: 'the PDF is password-protected or encrypted.',
  malformed: 'the PDF is damaged and cannot be read.',
  imageTooLarge: 'the image is larger than 50 megapixels.',
  imageUnreadable: 'the image cannot be read.',
  signatureUnreadable: 'the signer’s adopted signature cannot be read; ask the signer to adopt it again.',
  tooLong: 'it took too long to process.',
} as const;
