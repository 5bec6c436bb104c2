import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/**
 * Notaries' signing certificates, as PKCS#12 bundles. An admin uploads the
 * real one; in test mode a self-signed one is generated per notary, its
 * common name saying so, so nobody mistakes a test seal for a real one.
 */
export interface CertificateInfo {
  subject: string;
  commonName: string;
  notAfter: Date;
}

export class CertificateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateError';
  }
}

const oid = (name: string): string => forge.pki.oids[name]!;

export const testCertificateLabel = 'TEST MODE self-signed';

/** Opens a PKCS#12 bundle: exactly one private key and its certificate, or a clear error. */
export function readP12(p12: Buffer, password: string): CertificateInfo {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
    parsed = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch {
    throw new CertificateError('This is not a PKCS#12 file, or the password is wrong.');
  }
  const bags = (type: string) => parsed.getBags({ bagType: type })[type] ?? [];
  const keys = [...bags(oid('pkcs8ShroudedKeyBag')), ...bags(oid('keyBag'))];
  const certs = bags(oid('certBag'));
  const cert = certs[0]?.cert;
  if (keys.length === 0 || !cert) throw new CertificateError('The PKCS#12 file must hold the private key and its certificate.');
  const commonName = String(cert.subject.getField('CN')?.value ?? '');
  return {
    commonName,
    subject: cert.subject.attributes.map((a: { shortName?: string; name?: string; value?: unknown }) => `${a.shortName ?? a.name}=${String(a.value)}`).join(', '),
    notAfter: cert.validity.notAfter,
  };
}

/** A fresh self-signed certificate for `name`, valid two years, as PKCS#12 with a random password. */
export function generateTestCertificate(name: string, now: Date): { p12: Buffer; password: string; info: CertificateInfo } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 2 * 365 * 24 * 3600_000);
  const attrs = [
    { name: 'commonName', value: `${name} (${testCertificateLabel})` },
    { name: 'organizationName', value: 'NotaryOnline test notary' },
    { name: 'countryName', value: 'US' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const password = randomBytes(18).toString('base64url');
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: '3des' });
  const p12 = Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  return { p12, password, info: readP12(p12, password) };
}
