import forge from 'node-forge';

/**
 * DER in and out, on node-forge's ASN.1 tree (its only part we use for
 * structure: hashing and signatures are node:crypto's). Small builders so the
 * CMS, timestamp and OCSP code reads like the ASN.1 it writes.
 */
export type Node = forge.asn1.Asn1;
const { asn1 } = forge;
const { Class, Type } = asn1;

export const oids = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  sha384WithRSA: '1.2.840.113549.1.1.12',
  sha512WithRSA: '1.2.840.113549.1.1.13',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
  ocspBasic: '1.3.6.1.5.5.7.48.1.1',
  ocspNonce: '1.3.6.1.5.5.7.48.1.2',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  accessOcsp: '1.3.6.1.5.5.7.48.1',
  accessCaIssuers: '1.3.6.1.5.5.7.48.2',
  crlDistributionPoints: '2.5.29.31',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

/** Digest names node:crypto knows, by algorithm OID (plain and with-signature forms). */
export const digestOfOid: Record<string, string> = {
  [oids.sha1]: 'sha1',
  [oids.sha256]: 'sha256',
  [oids.sha384]: 'sha384',
  [oids.sha512]: 'sha512',
  [oids.sha256WithRSA]: 'sha256',
  [oids.sha384WithRSA]: 'sha384',
  [oids.sha512WithRSA]: 'sha512',
  [oids.ecdsaWithSHA256]: 'sha256',
  [oids.ecdsaWithSHA384]: 'sha384',
  [oids.ecdsaWithSHA512]: 'sha512',
};

const binary = (bytes: Uint8Array) => Buffer.from(bytes).toString('binary');

export const seq = (...items: Node[]) => asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, items);
export const set = (...items: Node[]) => asn1.create(Class.UNIVERSAL, Type.SET, true, items);
export const oid = (id: string) => asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(id).getBytes());
export const octets = (bytes: Uint8Array) => asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, binary(bytes));
export const nil = () => asn1.create(Class.UNIVERSAL, Type.NULL, false, '');
export const bool = (value: boolean) => asn1.create(Class.UNIVERSAL, Type.BOOLEAN, false, value ? '\xff' : '\x00');
export const generalizedTime = (date: Date) => asn1.create(Class.UNIVERSAL, Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date));
/** A non-negative INTEGER from its big-endian magnitude. */
export function uint(bytes: Uint8Array): Node {
  let value = Buffer.from(bytes);
  while (value.length > 1 && value[0] === 0 && value[1]! < 0x80) value = value.subarray(1);
  if (value[0]! >= 0x80) value = Buffer.concat([Buffer.from([0]), value]);
  return asn1.create(Class.UNIVERSAL, Type.INTEGER, false, binary(value));
}
export const int = (n: number) => asn1.create(Class.UNIVERSAL, Type.INTEGER, false, asn1.integerToDer(n).getBytes());
/** `[n]` around `inner` (EXPLICIT), or `inner`'s children retagged `[n]` (IMPLICIT, for SET/SEQUENCE OF). */
export const explicit = (n: number, inner: Node) => asn1.create(Class.CONTEXT_SPECIFIC, n, true, [inner]);
export const implicitSet = (n: number, items: Node[]) => asn1.create(Class.CONTEXT_SPECIFIC, n, true, items);
export const algorithm = (id: string, params: Node | null = nil()) => (params ? seq(oid(id), params) : seq(oid(id)));

export const toDer = (node: Node): Buffer => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
// @types/node-forge knows only the old boolean form; forge takes the options object.
const fromDerWithOptions = asn1.fromDer as unknown as (bytes: forge.util.ByteStringBuffer, options: { strict: boolean; decodeBitStrings: boolean }) => Node;
export const fromDer = (bytes: Uint8Array): Node => fromDerWithOptions(forge.util.createBuffer(binary(bytes)), { strict: true, decodeBitStrings: false });
/** A node already in DER (a certificate, a token) placed as it is. */
export const raw = (bytes: Uint8Array): Node => fromDer(bytes);

/** The DER SET OF order (X.690 11.6): members sorted by their encodings. */
export function sortedSet(items: Node[]): Node {
  const encoded = items.map((item) => ({ item, der: toDer(item) }));
  encoded.sort((a, b) => Buffer.compare(a.der, b.der));
  return set(...encoded.map((e) => e.item));
}

// ---- Reading ----------------------------------------------------------------

export const children = (node: Node | undefined): Node[] => (Array.isArray(node?.value) ? (node.value as Node[]) : []);
export const bytesOf = (node: Node | undefined): Buffer => {
  if (!node) return Buffer.alloc(0);
  // A BER constructed OCTET STRING: its pieces, joined.
  if (Array.isArray(node.value)) return Buffer.concat((node.value as Node[]).map(bytesOf));
  return Buffer.from(node.value as string, 'binary');
};
export const oidOf = (node: Node | undefined): string => (node && node.type === Type.OID && !Array.isArray(node.value) ? asn1.derToOid(forge.util.createBuffer(node.value as string)) : '');
export const isContext = (node: Node | undefined, n: number) => node?.tagClass === Class.CONTEXT_SPECIFIC && node.type === n;
export const isUniversal = (node: Node | undefined, type: number) => node?.tagClass === Class.UNIVERSAL && node.type === type;
export const types = Type;
/** An INTEGER as a bigint (iteration counts can be any size a file claims). */
export function bigintOf(node: Node | undefined): bigint {
  const bytes = bytesOf(node);
  if (bytes.length === 0) return 0n;
  return BigInt(`0x${bytes.toString('hex')}`) - (bytes[0]! & 0x80 ? 1n << BigInt(bytes.length * 8) : 0n);
}
export function timeOf(node: Node | undefined): Date {
  if (!node || Array.isArray(node.value)) return new Date(Number.NaN);
  if (node.type === Type.GENERALIZEDTIME) return asn1.generalizedTimeToDate(node.value as string);
  return asn1.utcTimeToDate(node.value as string);
}
