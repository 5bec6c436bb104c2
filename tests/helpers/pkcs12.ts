import forge from 'node-forge';

/** Rewrites every iteration count in a PKCS#12 (MAC, PBES2 inside the safes) through the ASN.1 tree, re-encoding it. */
export function rewriteIterations(p12: Buffer, count: number): Buffer {
  const { asn1 } = forge;
  const visit = (node: forge.asn1.Asn1): void => {
    if (!Array.isArray(node.value)) {
      if (node.type === asn1.Type.OCTETSTRING && node.value.charCodeAt(0) === 0x30) {
        try {
          const inner = asn1.fromDer(forge.util.createBuffer(node.value), { strict: true, decodeBitStrings: false } as never);
          visit(inner);
          node.value = asn1.toDer(inner).getBytes();
        } catch {
          // Not DER inside.
        }
      }
      return;
    }
    const items = node.value as forge.asn1.Asn1[];
    items.forEach((item, i) => {
      if (item.type === asn1.Type.OCTETSTRING && items[i + 1]?.type === asn1.Type.INTEGER && items[i + 1]!.tagClass === asn1.Class.UNIVERSAL && node.type === asn1.Type.SEQUENCE) {
        items[i + 1]!.value = asn1.integerToDer(count).getBytes();
      }
    });
    items.forEach(visit);
  };
  const root = asn1.fromDer(forge.util.createBuffer(p12.toString('binary')), { strict: true, decodeBitStrings: false } as never);
  visit(root);
  return Buffer.from(asn1.toDer(root).getBytes(), 'binary');
}
