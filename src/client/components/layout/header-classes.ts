/**
 * The header's buttons, as `buttonVariants` (ui/button-variants.ts) writes them, spelled
 * out so the layout — on every first load — carries no cva (docs/decisions/051).
 * header-classes.test.ts keeps them equal to the variants.
 */
const base =
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:pointer-events-none disabled:opacity-60';

/** `buttonVariants()` */
export const primaryButton = `${base} bg-blue-700 text-white hover:bg-blue-800 h-11 px-5 text-sm`;
/** `buttonVariants({ size: 'sm' })` */
export const primaryButtonSmall = `${base} bg-blue-700 text-white hover:bg-blue-800 h-9 px-3 text-sm`;
/** `buttonVariants({ variant: 'ghost', size: 'icon' })` */
export const ghostIconButton = `${base} text-slate-800 hover:bg-slate-100 h-11 w-11`;
