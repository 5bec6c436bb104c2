/**
 * How a booked session happens, in the words every page and email uses
 * (confirmation step, emails, calendar entry, FAQ): identity verified online
 * before the session, a secure video session joined from the booking page,
 * signing with the notary's electronic seal, the notarized PDF downloaded
 * from the same page. See docs/product.md §12 (the notarial act).
 */
export const sessionActions = {
  verify: 'Verify your identity',
  join: 'Join video session',
  download: 'Download notarized document',
} as const;

/** The video session opens this many minutes before the appointment starts. */
export const joinOpensMinutesBefore = 10;

/** The steps after booking, one sentence each (emails, calendar entry, confirmation). */
export const sessionSteps = [
  `Verify your identity online before your session: choose "${sessionActions.verify}" on your booking page (the link is in your confirmation email) and follow the photo ID and selfie check.`,
  `From ${joinOpensMinutesBefore} minutes before your start time, open your booking page and choose "${sessionActions.join}" to meet your notary by secure video.`,
  'In the session you sign your documents electronically while the notary watches, and the notary adds their electronic seal and signature.',
  `Your notarized PDF is then ready under "${sessionActions.download}" on your booking page, and we email you a secure link to it.`,
] as const;

/** The hint beside the phone field: the session is by video, the phone is for reaching the customer. */
export const phoneHint = 'We use this number only if we need to reach you about your appointment, for example if your video connection drops.';
