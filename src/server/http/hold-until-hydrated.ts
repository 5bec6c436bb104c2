/**
 * What a visitor does on a server-rendered page before its scripts have hydrated it is
 * held, not lost or sent as plain HTML (docs/decisions/056-actions-before-hydration.md):
 *
 * - a click on a button the page's script handles — `type="button"`, a button in no
 *   form (the wizard's "Continue to Booking"), or one in a form without an `action` —
 *   is held and given again once React handles it;
 * - a form without an `action` is never submitted by the browser itself: a sign-in form
 *   submitted before hydration would otherwise be sent as `GET ?email=…&password=…`, the
 *   password in the address, the history and the server's access logs. Its submission
 *   (Enter in a field) is held and made again after hydration.
 *
 * Links, `<details>` and forms with an `action` (those that work without JavaScript,
 * docs/decisions/051) are left alone. entry-client.tsx calls `window.__afterHydration`
 * once the page has hydrated. pages.ts writes this into the page's first inline script
 * (its public configuration), in the head before any style sheet, so it runs before the
 * body is parsed and without waiting for styles.
 */
export const holdUntilHydratedScript = `(${holdUntilHydrated.toString().replace(/\s+/g, ' ')})();`;

/**
 * Runs in the browser, inlined by its source (so it stays plain script: no imports,
 * nothing from outside its own body, no comments inside: its whitespace is collapsed).
 */
function holdUntilHydrated(): void {
  const buttons: HTMLButtonElement[] = [];
  const forms: HTMLFormElement[] = [];
  const scripted = (form: HTMLFormElement | null) => form === null || !form.hasAttribute('action');
  const onClick = (event: Event) => {
    const target = event.target;
    const button = target instanceof Element ? target.closest('button') : null;
    if (!button || (button.type !== 'button' && !scripted(button.form))) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!buttons.includes(button)) buttons.push(button);
  };
  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !scripted(form)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!forms.includes(form)) forms.push(form);
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  window.__afterHydration = () => {
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('submit', onSubmit, true);
    for (const button of buttons.splice(0)) if (button.isConnected) button.click();
    for (const form of forms.splice(0)) if (form.isConnected) form.requestSubmit();
  };
}
