import { useEffect, useState, type FormEvent } from 'react';
import { commissionInput } from '../../../shared/notarial-act.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { FormMessage } from '../admin/form-message.tsx';
import { useFieldErrors } from '../admin/use-field-errors.tsx';

type Field = 'commissionNumber' | 'commissionExpiresOn' | 'commissionState' | 'commissionCounty';

/** The notary's commission, printed in the seal: asked for here when missing. Each refusal is shown on its field. */
export function CommissionForm() {
  const utils = trpc.useUtils();
  const profile = trpc.act.profile.useQuery(undefined, { retry: false });
  const update = trpc.act.updateCommission.useMutation({ onSuccess: (p) => utils.act.profile.setData(undefined, p) });
  const errors = useFieldErrors<Field>();
  const [values, setValues] = useState<Record<Field, string>>({ commissionNumber: '', commissionExpiresOn: '', commissionState: 'Iowa', commissionCounty: '' });
  useEffect(() => {
    if (!profile.data) return;
    setValues({
      commissionNumber: profile.data.commissionNumber ?? '',
      commissionExpiresOn: profile.data.commissionExpiresOn ?? '',
      commissionState: profile.data.commissionState,
      commissionCounty: profile.data.commissionCounty ?? '',
    });
  }, [profile.data]);
  const field = (name: Field, label: string, type = 'text') => (
    // min-w-0: a date input's intrinsic width must not push the grid cell past a narrow panel.
    <div className="grid min-w-0 gap-1">
      <Label htmlFor={`commission-${name}`}>{label}</Label>
      <Input
        id={`commission-${name}`}
        type={type}
        className="w-full min-w-0"
        value={values[name]}
        onChange={(e) => setValues({ ...values, [name]: e.target.value })}
        {...errors.inputProps(name)}
      />
      {errors.message(name)}
    </div>
  );
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!errors.check(commissionInput, values)) return;
    try {
      await update.mutateAsync(values);
    } catch (e) {
      errors.fail(e);
    }
  };
  return (
    <form className="grid min-w-0 gap-2 rounded-md border border-amber-300 bg-amber-50 p-3" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p className="font-semibold text-amber-950">Your commission (printed in your seal)</p>
      <div className="grid gap-2 sm:grid-cols-2">
        {field('commissionNumber', 'Commission number')}
        {field('commissionExpiresOn', 'Commission expires', 'date')}
        {field('commissionState', 'State')}
        {field('commissionCounty', 'County (venue)')}
      </div>
      <FormMessage message={errors.formError} />
      {update.isSuccess && <p role="status" className="text-green-800">Commission saved.</p>}
      <Button type="submit" size="sm" className="w-fit" disabled={update.isPending}>
        Save commission
      </Button>
    </form>
  );
}
