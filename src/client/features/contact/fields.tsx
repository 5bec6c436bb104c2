import { useState } from 'react';
import type { ZodType } from 'zod';
import { contactMessages } from '../../../shared/contact.ts';
import { Input } from '../../components/ui/input.tsx';
import { FieldError, Label } from '../../components/ui/label.tsx';
import { fieldErrorsOf } from '../../lib/errors.ts';

/**
 * The contact forms' email field. The address is checked with the server's own
 * rule (`rule`, from shared/contact.ts) before sending, and a refusal — ours or
 * the server's — is shown on the field, not as a failed send.
 */
export function useEmailField(idPrefix: string, rule: ZodType) {
  const [error, setError] = useState<string | null>(null);
  const id = `${idPrefix}-email`;
  const errorId = `${idPrefix}-email-error`;
  return {
    /** False (the field marked and focused) when `value` breaks the rule; clears the mark otherwise. */
    accepts(form: HTMLFormElement, value: string): boolean {
      const checked = rule.safeParse(value);
      if (checked.success) {
        setError(null);
        return true;
      }
      setError(checked.error.issues[0]?.message ?? contactMessages.invalidEmail);
      form.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
      return false;
    },
    /** True, with the message on the field, when the server refused the email. */
    refused(failure: unknown): boolean {
      const refusal = fieldErrorsOf(failure)?.email?.[0];
      if (refusal) setError(refusal);
      return !!refusal;
    },
    field: (label: string) => (
      <div className="grid gap-1.5">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          name="email"
          type="email"
          required
          autoComplete="email"
          maxLength={254}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onInput={() => setError(null)}
        />
        <FieldError id={errorId}>{error}</FieldError>
      </div>
    ),
  };
}

/** The forms' optional phone number. */
export function PhoneField({ idPrefix }: { idPrefix: string }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={`${idPrefix}-phone`}>
        Phone <span className="font-normal text-slate-600">(optional)</span>
      </Label>
      <Input id={`${idPrefix}-phone`} name="phone" type="tel" autoComplete="tel" maxLength={40} />
    </div>
  );
}
