import { X509Certificate, createHash, sign, verify, type KeyObject } from 'node:crypto';
import {
  algorithm,
  bytesOf,
  children,
  digestOfOid,
  explicit,
  fromDer,
  implicitSet,
  int,
  isContext,
  octets,
  oid,
  oidOf,
  oids,
  raw,
  seq,
  set,
  sortedSet,
  toDer,
  types,
  isUniversal,
  type Node,
} from './der.ts';

/**
 * CMS SignedData (RFC 5652), detached, as PAdES and RFC 3161 use it: built
 * with node:crypto's hashing and signing (the file is never hashed in
 * JavaScript), and read back to check a timestamp token or a signature.
 * Structure with node-forge's ASN.1 (docs/decisions/060-pades-signature-levels.md).
 */

export class CmsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CmsError';
  }
}

// ---- Certificates --------------------------------------------------------------

/** The parts of a certificate CMS refers to: issuer name (as DER), serial, and the TBS fields. */
export function certificateParts(der: Buffer) {
  const tbs = children(children(fromDer(der))[0]);
  const offset = isContext(tbs[0], 0) ? 1 : 0;
  return {
    serial: tbs[offset]!,
    issuer: tbs[offset + 2]!,
    subject: tbs[offset + 4]!,
    extensions: children(children(tbs.find((n) => isContext(n, 3)))[0]),
  };
}

/** An extension's inner value (the OCTET STRING's content), or null. */
export function extensionValue(der: Buffer, id: string): Node | null {
  for (const ext of certificateParts(der).extensions) {
    const parts = children(ext);
    if (oidOf(parts[0]) !== id) continue;
    return fromDer(bytesOf(parts[parts.length - 1]));
  }
  return null;
}

const issuerAndSerial = (certDer: Buffer) => {
  const parts = certificateParts(certDer);
  return seq(parts.issuer, parts.serial);
};

// ---- Signing -------------------------------------------------------------------

export interface CmsSigner {
  /** The signer's certificate (DER) and its private key (RSA or EC). */
  certificate: Buffer;
  key: KeyObject;
  /** Certificates to carry besides the signer's (its chain). */
  chain: Buffer[];
}

const attribute = (type: string, value: Node) => seq(oid(type), set(value));

function signatureAlgorithmFor(key: KeyObject): Node {
  if (key.asymmetricKeyType === 'rsa') return algorithm(oids.rsaEncryption);
  if (key.asymmetricKeyType === 'ec') return algorithm(oids.ecdsaWithSHA256, null);
  throw new CmsError(`A ${key.asymmetricKeyType} key cannot sign here (RSA or EC only).`);
}

/**
 * A detached CAdES signature over content whose SHA-256 is `digest`: signed
 * attributes content-type, message-digest and ESS signing-certificate-v2
 * (PAdES B-B; no signing-time, the PDF's /M carries the claimed time), then
 * optionally a signature timestamp token over the signature value (B-T).
 */
export async function signDetached(
  signer: CmsSigner,
  digest: Buffer,
  options: { contentType?: string; timestamp?: (signatureValue: Buffer) => Promise<Buffer> } = {},
): Promise<Buffer> {
  const certHash = createHash('sha256').update(signer.certificate).digest();
  const parts = certificateParts(signer.certificate);
  // ESSCertIDv2 with the default hash (SHA-256, omitted) and the issuer/serial it names.
  const essCertId = seq(octets(certHash), seq(seq(explicit(4, parts.issuer)), parts.serial));
  const signedAttributes = [
    attribute(oids.contentType, oid(options.contentType ?? oids.data)),
    attribute(oids.messageDigest, octets(digest)),
    attribute(oids.signingCertificateV2, seq(seq(essCertId))),
  ];
  // Signed as a DER SET OF (sorted), carried as [0] IMPLICIT with the same members.
  const signedSet = sortedSet(signedAttributes);
  const signatureValue = sign('sha256', toDer(signedSet), signer.key);
  const signerInfo = [
    int(1),
    issuerAndSerial(signer.certificate),
    algorithm(oids.sha256),
    implicitSet(0, children(signedSet)),
    signatureAlgorithmFor(signer.key),
    octets(signatureValue),
  ];
  if (options.timestamp) {
    const token = await options.timestamp(signatureValue);
    signerInfo.push(implicitSet(1, [attribute(oids.signatureTimeStampToken, raw(token))]));
  }
  const certificates = [signer.certificate, ...signer.chain.filter((c) => !c.equals(signer.certificate))];
  const signedData = seq(
    int(1),
    set(algorithm(oids.sha256)),
    seq(oid(options.contentType ?? oids.data)),
    implicitSet(0, certificates.map(raw)),
    set(seq(...signerInfo)),
  );
  return toDer(seq(oid(oids.signedData), explicit(0, signedData)));
}

// ---- Reading and verifying ----------------------------------------------------------

export interface SignedDataView {
  eContentType: string;
  eContent: Buffer | null;
  certificates: Buffer[];
  signerInfos: Node[];
}

export function readSignedData(der: Buffer): SignedDataView {
  let contentInfo: Node;
  try {
    contentInfo = fromDer(der);
  } catch {
    throw new CmsError('Not a DER-encoded CMS structure.');
  }
  const [type, wrapped] = children(contentInfo);
  if (oidOf(type) !== oids.signedData) throw new CmsError('Not a CMS SignedData.');
  const fields = children(children(wrapped)[0]);
  const encap = children(fields[2]);
  const eContent = encap[1] ? bytesOf(children(encap[1])[0]) : null;
  const certificates = children(fields.find((n) => isContext(n, 0))).map((cert) => toDer(cert));
  const signerInfos = children(fields[fields.length - 1]);
  return { eContentType: oidOf(encap[0]), eContent, certificates, signerInfos };
}

/** A signer info's parts by name. */
export function signerInfoParts(signerInfo: Node) {
  const fields = children(signerInfo);
  const signed = fields.find((n) => isContext(n, 0));
  const unsigned = fields.find((n) => isContext(n, 1));
  const after = fields.slice(fields.indexOf(signed ?? fields[2]!) + 1);
  const attributes = (node: Node | undefined) => new Map(children(node).map((a) => [oidOf(children(a)[0]), children(children(a)[1])[0]!] as const));
  return {
    sid: fields[1]!,
    digestAlgorithm: oidOf(children(fields[2])[0]),
    signedAttributes: signed ? attributes(signed) : new Map<string, Node>(),
    signedAttributesDer: signed ? toDer(set(...children(signed))) : null,
    signatureAlgorithm: oidOf(children(after[0])[0]),
    signature: bytesOf(after[1]),
    unsignedAttributes: attributes(unsigned),
  };
}

function signerCertificate(view: SignedDataView, sid: Node): Buffer {
  for (const cert of view.certificates) {
    if (isUniversal(sid, types.SEQUENCE)) {
      const parts = certificateParts(cert);
      const [issuer, serial] = children(sid);
      if (toDer(parts.issuer).equals(toDer(issuer!)) && toDer(parts.serial).equals(toDer(serial!))) return cert;
    } else if (isContext(sid, 0)) {
      const ski = extensionValue(cert, '2.5.29.14');
      if (ski && bytesOf(ski).equals(bytesOf(sid))) return cert;
    }
  }
  throw new CmsError('The signer’s certificate is not in the CMS structure.');
}

/**
 * Checks the (first) signer of `view` over `content` (the encapsulated
 * content when null): message digest and signature, against the certificate
 * the structure carries. Trust in that certificate is the caller's question.
 */
export function verifySignedData(view: SignedDataView, content: Buffer | null = view.eContent): { certificate: X509Certificate } {
  const signerInfo = view.signerInfos[0];
  if (!signerInfo || !content) throw new CmsError('No signer or no content to check.');
  const parts = signerInfoParts(signerInfo);
  const digestName = digestOfOid[parts.digestAlgorithm];
  if (!digestName) throw new CmsError('Unsupported digest algorithm.');
  const certificate = new X509Certificate(signerCertificate(view, parts.sid));
  let signedBytes = content;
  if (parts.signedAttributesDer) {
    const messageDigest = parts.signedAttributes.get(oids.messageDigest);
    if (!messageDigest || !bytesOf(messageDigest).equals(createHash(digestName).update(content).digest())) throw new CmsError('The message digest does not match.');
    signedBytes = parts.signedAttributesDer;
  }
  if (!verify(digestName, signedBytes, certificate.publicKey, parts.signature)) throw new CmsError('The signature does not verify.');
  return { certificate };
}
