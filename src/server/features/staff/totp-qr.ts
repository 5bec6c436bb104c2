/**
 * The otpauth URI as a QR code, drawn here as SVG: an authenticator app scans
 * it from the screen. Made on the server so the secret never goes to a
 * third-party QR service and the console's bundle stays without the encoder.
 */
export async function totpQrSvg(uri: string): Promise<string> {
  // The encoder (with pngjs) loads with the first enrolment, not at start.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#0f172a', light: '#ffffff' } });
}
