import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';

/** The notary's commission, printed in the seal: asked for here when missing. */
export function CommissionForm() {
  const utils = trpc.useUtils();
  const profile = trpc.act.profile.useQuery(undefined, { retry: false });
  const update = trpc.act.updateCommission.useMutation({ onSuccess: (p) => utils.act.profile.setData(undefined, p) });
  const [values, setValues] = useState({ commissionNumber: '', commissionExpiresOn: '', commissionState: 'Iowa', commissionCounty: '' });
  useEffect(() => {
    if (!profile.data) return;
    setValues({
      commissionNumber: profile.data.commissionNumber ?? '',
      commissionExpiresOn: profile.data.commissionExpiresOn ?? '',
      commissionState: profile.data.commissionState,
      commissionCounty: profile.data.commissionCounty ?? '',
    });
  }, [profile.data]);
  const field = (name: keyof typeof values, label: string, type = 'text') => (
    <div className="grid gap-1">
      <Label htmlFor={`commission-${name}`}>{label}</Label>
      <Input id={`commission-${name}`} type={type} value={values[name]} onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
    </div>
  );
  return (
    <form
      className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(values);
      }}
    >
      <p className="font-semibold text-amber-950">Your commission (printed in your seal)</p>
      <div className="grid gap-2 sm:grid-cols-2">
        {field('commissionNumber', 'Commission number')}
        {field('commissionExpiresOn', 'Commission expires', 'date')}
        {field('commissionState', 'State')}
        {field('commissionCounty', 'County (venue)')}
      </div>
      {update.error && <p role="alert" className="text-red-700">{update.error.message}</p>}
      {update.isSuccess && <p role="status" className="text-green-800">Commission saved.</p>}
      <Button type="submit" size="sm" className="w-fit" disabled={update.isPending}>
        Save commission
      </Button>
    </form>
  );
}
