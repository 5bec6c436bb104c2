/**
 * The name and tagline on their own (site.ts holds every other fact): the layout and
 * page titles, on every first load, import only these (docs/decisions/051).
 */
export const brand = 'NotaryOnline';
export const tagline = 'Online notarization, done right from wherever you are.';
