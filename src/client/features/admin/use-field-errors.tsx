import { useCallback, useId, useState } from 'react';
import type { ZodType } from 'zod';
import { FieldError } from '../../components/ui/label.tsx';
import { errorMessage, fieldErrorsOf } from '../../lib/errors.ts';

/**
 * Field messages for a console form: the shared zod schema (the server's own
 * rule) is checked before sending, and a refusal the server explains per
 * field lands on that field too. What is left (wrong password, expired
 * invitation) is a form-level message; never a serialized error.
 */
export function useFieldErrors<Field extends string>() {
  const prefix = useId();
  const [fields, setFields] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const messageId = (name: Field) => `${prefix}-${name}-error`;

  /** True when `values` pass `schema`; otherwise each failing field gets its message. */
  const check = useCallback(<T,>(schema: ZodType<T>, values: unknown): values is T => {
    const result = schema.safeParse(values);
    setFormError(null);
    if (result.success) {
      setFields({});
      return true;
    }
    const next: Partial<Record<Field, string>> = {};
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? '') as Field;
      next[name] ??= issue.message;
    }
    setFields(next);
    return false;
  }, []);

  /** A refusal from the server: per field when it says which, else one readable message. */
  const fail = useCallback((error: unknown) => {
    const byField = fieldErrorsOf(error);
    const entries = Object.entries(byField ?? {}).filter(([, m]) => m && m.length > 0) as [Field, string[]][];
    if (entries.length > 0) {
      setFields(Object.fromEntries(entries.map(([name, messages]) => [name, messages[0]])) as Partial<Record<Field, string>>);
      setFormError(null);
    } else {
      setFields({});
      setFormError(errorMessage(error));
    }
  }, []);

  const reset = useCallback(() => {
    setFields({});
    setFormError(null);
  }, []);

  /** Props for the input of `name` (plus an optional hint's id), clearing its message on edit. */
  const inputProps = (name: Field, hintId?: string) => ({
    'aria-invalid': fields[name] ? true : undefined,
    'aria-describedby': [hintId, fields[name] ? messageId(name) : undefined].filter(Boolean).join(' ') || undefined,
    onInput: () => setFields((current) => (current[name] ? { ...current, [name]: undefined } : current)),
  });

  const message = (name: Field) => <FieldError id={messageId(name)}>{fields[name]}</FieldError>;

  return { check, fail, reset, inputProps, message, formError, setFormError };
}

/** What a shared submit helper needs of a form's errors. */
export type FieldErrors = Pick<ReturnType<typeof useFieldErrors>, 'check' | 'fail'>;
