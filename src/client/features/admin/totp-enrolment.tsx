/** The key as a QR code (scanned by the app), as text (typed into it) and as the otpauth link (opened on the same device). */
export function TotpEnrolment({ secret, uri, qrSvg }: { secret: string; uri: string; qrSvg: string }) {
  const grouped = secret.match(/.{1,4}/g)?.join(' ') ?? secret;
  return (
    <div className="mt-4 grid gap-3">
      <figure className="grid justify-items-start gap-2">
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
          alt="QR code of the two-factor key: scan it with your authenticator app"
          width={192}
          height={192}
          className="rounded-md border border-slate-200"
          data-testid="totp-qr"
        />
        <figcaption className="text-sm text-slate-700">Scan this code with your authenticator app.</figcaption>
      </figure>
      <div>
        <p className="text-sm font-medium text-slate-800">Or enter this key</p>
        <p className="mt-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900">{grouped}</p>
      </div>
      <details className="text-sm text-slate-700">
        <summary className="cursor-pointer">Show the otpauth link</summary>
        <p className="mt-1 break-all font-mono text-xs">{uri}</p>
      </details>
    </div>
  );
}
