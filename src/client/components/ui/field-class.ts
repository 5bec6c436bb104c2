/** A text field's look, without tailwind-merge: light pages (console sign-in) use it on a plain <input>. */
export const fieldClass =
  'w-full rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500 focus-visible:border-blue-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-700';
