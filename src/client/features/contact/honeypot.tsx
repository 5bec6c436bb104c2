import { honeypotField } from '../../../shared/contact.ts';

/**
 * A field people never see or reach (off-screen, hidden from assistive
 * technology, out of the tab order, no autofill); form-filling robots do fill
 * it, and the server then quietly drops the message. No captcha puzzle for
 * anyone.
 */
export function Honeypot({ idPrefix }: { idPrefix: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] top-auto h-px w-px overflow-hidden">
      <label htmlFor={`${idPrefix}-${honeypotField}`}>Leave this field empty</label>
      <input id={`${idPrefix}-${honeypotField}`} name={honeypotField} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** The form's text fields as strings (uncontrolled inputs: they work the moment the page is hydrated). */
export function formValues<Name extends string>(form: HTMLFormElement, names: readonly Name[]): Record<Name, string> {
  const data = new FormData(form);
  return Object.fromEntries(names.map((name) => [name, String(data.get(name) ?? '')])) as Record<Name, string>;
}
