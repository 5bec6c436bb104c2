import { X509Certificate, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, pbkdf2Sync, randomBytes, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { bigintOf, bytesOf, children, fromDer, isUniversal, oids, types, type Node } from '../../crypto/der.ts';
import { extensionValue } from '../../crypto/cms.ts';
import { isSelfIssued } from '../../crypto/revocation.ts';
import { CertificateError, certificateMessages } from './seal-errors.ts';

/**
 * Notaries' signing certificates, as PKCS#12 bundles. An admin uploads the
 * real one (issued by a CA); in test mode a self-signed one is generated per
 * notary, its common name saying so, so nobody mistakes a test seal for a
 * real one. Opening a bundle runs in the seal worker (seal-worker.ts): the
 * key derivation a file asks for is bounded before it starts (issue 24,
 * finding 3) and never runs on the event loop.
 */
export interface CertificateInfo {
  subject: string;
  commonName: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** keyUsage bits by name (digitalSignature, nonRepudiation, …) and extended key usages by OID. */
  keyUsage: string[];
  selfSigned: boolean;
}

export { CertificateError };

export const testCertificateLabel = 'TEST MODE self-signed';
/** A PKCS#12 bundle is a few KB; an upload past this is not one. */
export const maxP12Bytes = 64 * 1024;
/**
 * The most key-derivation iterations a bundle may ask for (MAC and each
 * PBE/PBKDF2). OpenSSL writes 2,048, Windows 2,000, Java 10,000; OWASP's
 * PBKDF2-SHA256 advice is 600,000. A file saying 2^31 is refused unread.
 */
export const maxKeyDerivationIterations = 1_000_000;

const oid = (name: string): string => forge.pki.oids[name]!;

/**
 * Every iteration count the bundle declares, read from its ASN.1 before any
 * derivation: a SEQUENCE whose OCTET STRING (a salt) is followed by an
 * INTEGER is the MAC data (digest info, salt, iterations), PKCS#12 PBE
 * params (salt, iterations) or PBKDF2 params (salt, count, …). OCTET STRINGs
 * that hold DER (the authenticated safe, safe contents) are read into as well.
 */
export function pkcs12IterationCounts(p12: Buffer): bigint[] {
  const counts: bigint[] = [];
  const visit = (node: Node, depth: number) => {
    if (depth > 32) throw new CertificateError(certificateMessages.notPkcs12);
    const items = children(node);
    items.forEach((item, i) => {
      if (isUniversal(item, types.OCTETSTRING) && isUniversal(items[i + 1], types.INTEGER) && isUniversal(node, types.SEQUENCE)) counts.push(bigintOf(items[i + 1]));
    });
    for (const item of items) visit(item, depth + 1);
    if (isUniversal(node, types.OCTETSTRING) && !Array.isArray(node.value)) {
      const inner = bytesOf(node);
      if (inner[0] === 0x30) {
        let parsed: Node | null = null;
        try {
          parsed = fromDer(inner);
        } catch {
          // Not DER inside (a salt, encrypted bytes): nothing to read.
        }
        if (parsed) visit(parsed, depth + 1);
      }
    }
  };
  let root: Node;
  try {
    root = fromDer(p12);
  } catch {
    throw new CertificateError(certificateMessages.notPkcs12);
  }
  visit(root, 0);
  return counts;
}

function checkIterations(count: number | bigint) {
  if (BigInt(count) > BigInt(maxKeyDerivationIterations) || BigInt(count) < 1n) throw new CertificateError(certificateMessages.tooManyIterations);
}

/**
 * Whatever path forge takes inside a bundle (a key bag inside an encrypted
 * safe declares its own count, readable only once the safe is open), its
 * derivations go through these: each checks the count first, and PBKDF2 is
 * node:crypto's (native) rather than forge's JavaScript.
 */
const forgeKdf = forge as unknown as {
  pkcs5: { pbkdf2: (p: string, s: string, c: number, dkLen: number, md?: string | { algorithm: string }) => string };
  pkcs12: { generateKey: (...args: unknown[]) => unknown };
  pki: { pbe: { generatePkcs12Key: (...args: unknown[]) => unknown } };
};
/** forge's own PKCS#12 derivation, kept for the test that ours gives the same bytes. */
export const forgePkcs12Kdf = forgeKdf.pkcs12.generateKey;
forgeKdf.pkcs5.pbkdf2 = (password, salt, count, dkLen, md) => {
  checkIterations(count);
  const digest = typeof md === 'string' ? md : (md?.algorithm ?? 'sha1');
  return pbkdf2Sync(Buffer.from(password, 'binary'), Buffer.from(salt, 'binary'), count, dkLen, digest).toString('binary');
};
forgeKdf.pkcs12.generateKey = forgeKdf.pki.pbe.generatePkcs12Key = (...args: unknown[]) => {
  const [password, salt, id, iterations, length, md] = args as [string | null | undefined, forge.util.ByteStringBuffer, number, number, number, forge.md.MessageDigest | undefined];
  checkIterations(iterations);
  return forge.util.createBuffer(pkcs12Kdf(password ?? null, Buffer.from(salt.bytes(), 'binary'), id, iterations, length, md?.algorithm ?? 'sha1').toString('binary'));
};

/**
 * RFC 7292 appendix B.2 (the PKCS#12 key derivation for its MAC and its
 * PBE-SHA1 ciphers), hashing with node:crypto: forge's JavaScript SHA-1 took
 * ~130 ms of every seal with a 2,048-iteration bundle.
 */
export function pkcs12Kdf(password: string | null, salt: Buffer, id: number, iterations: number, length: number, digest: string): Buffer {
  const sizes: Record<string, [number, number]> = { md5: [16, 64], sha1: [20, 64], sha256: [32, 64], sha384: [48, 128], sha512: [64, 128] };
  const [u, v] = sizes[digest] ?? [0, 0];
  if (!u) throw new CertificateError(certificateMessages.notPkcs12);
  const pass = Buffer.alloc(password === null ? 0 : 2 * (password.length + 1));
  if (password !== null) for (let i = 0; i < password.length; i++) pass.writeUInt16BE(password.charCodeAt(i), 2 * i);
  const repeat = (bytes: Buffer, size: number) => {
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i++) out[i] = bytes[i % bytes.length]!;
    return out;
  };
  const I = Buffer.concat([salt.length ? repeat(salt, v * Math.ceil(salt.length / v)) : Buffer.alloc(0), pass.length ? repeat(pass, v * Math.ceil(pass.length / v)) : Buffer.alloc(0)]);
  const D = Buffer.alloc(v, id);
  const out: Buffer[] = [];
  for (let produced = 0; produced < length; produced += u) {
    let A = createHash(digest).update(D).update(I).digest();
    for (let round = 1; round < iterations; round++) A = createHash(digest).update(A).digest();
    out.push(A);
    const B = repeat(A, v);
    for (let j = 0; j < I.length; j += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        carry += I[j + k]! + B[k]!;
        I[j + k] = carry & 0xff;
        carry >>= 8;
      }
    }
  }
  return Buffer.concat(out).subarray(0, length);
}

export interface OpenedP12 {
  info: CertificateInfo;
  key: KeyObject;
  certificate: Buffer;
  chain: Buffer[];
}

const keyUsageNames = ['digitalSignature', 'nonRepudiation', 'keyEncipherment', 'dataEncipherment', 'keyAgreement', 'keyCertSign', 'cRLSign', 'encipherOnly', 'decipherOnly'];

function keyUsageOf(der: Buffer, cert: X509Certificate): string[] {
  const usage: string[] = [];
  const bits = extensionValue(der, oids.keyUsage);
  if (bits) {
    const bytes = bytesOf(bits);
    keyUsageNames.forEach((name, i) => {
      const byte = bytes[1 + (i >> 3)] ?? 0;
      if (byte & (0x80 >> (i & 7))) usage.push(name);
    });
  }
  const extended = cert.keyUsage;
  if (Array.isArray(extended)) usage.push(...extended.map((id) => (id === oids.timeStamping ? 'timeStamping' : id)));
  return usage;
}

/** What the console shows of a certificate (DER). */
export function describeCertificate(der: Buffer): CertificateInfo {
  const cert = new X509Certificate(der);
  const line = (name: string) => name.split('\n').filter(Boolean).join(', ');
  return {
    subject: line(cert.subject),
    commonName: /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? '',
    issuer: line(cert.issuer),
    serialNumber: cert.serialNumber,
    notBefore: new Date(cert.validFrom),
    notAfter: new Date(cert.validTo),
    keyUsage: keyUsageOf(der, cert),
    selfSigned: isSelfIssued(der),
  };
}

/** Opens a PKCS#12 bundle: exactly one private key and its certificate, or a clear error. */
export function openP12(p12: Buffer, password: string): OpenedP12 {
  if (p12.length > maxP12Bytes) throw new CertificateError(certificateMessages.notPkcs12);
  for (const count of pkcs12IterationCounts(p12)) checkIterations(count);
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
    parsed = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    if (error instanceof CertificateError) throw error;
    throw new CertificateError(certificateMessages.notPkcs12);
  }
  const bags = (type: string) => parsed.getBags({ bagType: type })[type] ?? [];
  const keys = [...bags(oid('pkcs8ShroudedKeyBag')), ...bags(oid('keyBag'))];
  const certs = bags(oid('certBag'))
    .map((bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => !!cert)
    .map((cert) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary'));
  const forgeKey = keys[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!forgeKey || certs.length === 0) throw new CertificateError(certificateMessages.keyAndCertificate);
  const key = createPrivateKey(forge.pki.privateKeyToPem(forgeKey));
  // The signer's certificate is the one whose public key is this key's; the rest is its chain.
  const publicPem = createPublicKeyPem(key);
  const certificate = certs.find((der) => new X509Certificate(der).publicKey.export({ type: 'spki', format: 'pem' }).toString() === publicPem);
  if (!certificate) throw new CertificateError(certificateMessages.keyAndCertificate);
  return { info: describeCertificate(certificate), key, certificate, chain: certs.filter((der) => der !== certificate) };
}

/**
 * The notary's certificate opened once per seal worker, not once per seal
 * (issue 31): opening a PKCS#12 bundle is its key derivation, 3DES and RSA
 * key parsing in node-forge, 40–150 ms of every seal of a 10 MB document that
 * otherwise costs pdf-lib's load + save. Kept by the SHA-256 of the bundle and
 * its password, so a different bundle or a wrong password opens (and fails)
 * as before; at most a few, each dropped after `openedP12Ms` unused, and all
 * with the worker thread (it ends after 30 s without a job, seal-pool.ts).
 */
const openedP12s = new Map<string, { opened: OpenedP12; usedAt: number }>();
const openedP12Max = 4;
export const openedP12Ms = 5 * 60_000;

export function openP12Cached(p12: Buffer, password: string, now = Date.now()): OpenedP12 {
  const passwordBytes = Buffer.from(password, 'utf8');
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32BE(p12.length, 0);
  lengths.writeUInt32BE(passwordBytes.length, 4);
  const id = createHash('sha256').update(lengths).update(p12).update(passwordBytes).digest('hex');
  for (const [key, entry] of openedP12s) if (now - entry.usedAt > openedP12Ms) openedP12s.delete(key);
  const kept = openedP12s.get(id);
  if (kept) {
    // Most recently used last: the first entry is the one dropped when full.
    openedP12s.delete(id);
    openedP12s.set(id, { opened: kept.opened, usedAt: now });
    return kept.opened;
  }
  const opened = openP12(p12, password);
  openedP12s.set(id, { opened, usedAt: now });
  while (openedP12s.size > openedP12Max) openedP12s.delete(openedP12s.keys().next().value!);
  return opened;
}

function createPublicKeyPem(key: KeyObject): string {
  return createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
}

/** The certificate facts of a bundle (the console's upload). */
export function readP12(p12: Buffer, password: string): CertificateInfo {
  return openP12(p12, password).info;
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

