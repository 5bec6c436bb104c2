import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Input, Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { errorMessage } from '../../lib/errors.ts';

const formatDay = (date: Date) => date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * Admins upload each notary's signing certificate (PKCS#12 + password). The
 * server checks it opens, then stores both encrypted (DATA_ENCRYPTION_KEY);
 * the file never comes back out.
 */
export function CertificateUpload({ notaries }: { notaries: { id: string; name: string; email: string }[] }) {
  const ids = { notary: useId(), file: useId(), password: useId() };
  const [notaryId, setNotaryId] = useState(notaries[0]?.id ?? '');
  const upload = trpc.act.uploadCertificate.useMutation();
  const profile = trpc.act.notaryProfile.useQuery({ staffUserId: notaryId }, { enabled: !!notaryId });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get('p12');
    if (!(file instanceof File) || file.size === 0) return toast({ title: 'Choose the .p12 / .pfx file', variant: 'destructive' });
    if (file.size > 150_000) return toast({ title: 'That file is too large for a certificate', variant: 'destructive' });
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    try {
      await upload.mutateAsync({ staffUserId: notaryId, p12Base64: btoa(binary), password: String(form.get('password') ?? '') });
      toast({ title: 'Certificate stored (encrypted)', variant: 'success' });
      event.currentTarget?.reset();
      await profile.refetch();
    } catch (e) {
      toast({ title: 'Certificate not accepted', description: errorMessage(e), variant: 'destructive' });
    }
  }

  if (notaries.length === 0) return null;
  const cert = profile.data?.certificate;
  return (
    <section aria-labelledby={`${ids.notary}-h`} className="mt-10 max-w-2xl">
      <h2 id={`${ids.notary}-h`} className="mb-2 text-lg font-semibold text-slate-900">
        Notaries’ signing certificates
      </h2>
      <form onSubmit={submit} className="grid gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.notary}>Notary</Label>
          <Select id={ids.notary} value={notaryId} onChange={(e) => setNotaryId(e.target.value)}>
            {notaries.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name || n.email}
              </option>
            ))}
          </Select>
        </div>
        <div role="status" className="grid gap-1 text-sm text-slate-700">
          {cert ? (
            <>
              <p>On file: {cert.kind === 'test' ? 'TEST MODE self-signed (for testing only; not a valid notarization)' : 'uploaded'}</p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 [overflow-wrap:anywhere]">
                <dt className="font-semibold">Subject</dt>
                <dd>{cert.subject ?? '—'}</dd>
                <dt className="font-semibold">Issuer</dt>
                <dd>{cert.issuer ?? '—'}</dd>
                <dt className="font-semibold">Valid</dt>
                <dd>
                  {cert.validFrom ? formatDay(cert.validFrom) : '—'} to {cert.expiresAt ? formatDay(cert.expiresAt) : '—'}
                </dd>
                <dt className="font-semibold">Key usage</dt>
                <dd>{cert.keyUsage.length ? cert.keyUsage.join(', ') : '—'}</dd>
              </dl>
              {cert.expiresSoon && cert.expiresAt ? (
                <p className="font-semibold text-red-800">
                  {cert.expiresAt.getTime() < Date.now()
                    ? 'This certificate has expired: this notary cannot seal until a new one is uploaded.'
                    : `This certificate expires on ${formatDay(cert.expiresAt)}: upload its renewal before then.`}
                </p>
              ) : null}
            </>
          ) : (
            <p>No certificate on file.</p>
          )}
          {profile.data ? (
            <p>
              {profile.data.sealLevel === 'B-B'
                ? 'Seals are PAdES B-B: no timestamp authority is configured (TSA_URL), so a sealed document carries only our server’s clock and cannot be checked once the certificate expires.'
                : 'Seals are PAdES B-LTA: timestamped by the configured timestamp authority, with validation data and a document timestamp.'}
            </p>
          ) : null}
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.file}>PKCS#12 file (.p12 or .pfx)</Label>
          <input id={ids.file} name="p12" type="file" accept=".p12,.pfx,application/x-pkcs12" className="text-sm" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.password}>Certificate password</Label>
          <Input id={ids.password} name="password" type="password" autoComplete="off" maxLength={200} />
        </div>
        <Button type="submit" className="w-fit" disabled={upload.isPending || !notaryId}>
          Upload certificate
        </Button>
      </form>
    </section>
  );
}
