/**
 * Rules for short text fields that end up in emails, mail headers, the
 * console and file downloads. Shared by the browser (messages as you type)
 * and the server (the rule itself).
 */

/**
 * C0/C1 controls (CR and LF included), DEL, the Unicode line/paragraph
 * separators, and the bidirectional overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) that can make "invoice‮fdp.exe" read as "invoice.exe.pdf".
 */
// Control characters are exactly what this rule is about.
// oxlint-disable-next-line no-control-regex
export const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const controlCharactersGlobal = new RegExp(controlCharacters.source, 'g');

/** Whether a single-line value (a name, a company) is free of control characters. */
export function isSingleLine(value: string): boolean {
  return !controlCharacters.test(value);
}

/**
 * Whether a multi-line value (a chat message) is free of control characters
 * other than line breaks and tabs, and of bidi overrides: the single-line rule
 * with `\n` and `\t` allowed. A NUL would otherwise reach the database (which
 * refuses it) and the logs.
 */
export function isPlainText(value: string): boolean {
  return !controlCharacters.test(value.replace(/[\n\t]/g, ' '));
}

/** The message a single-line field shows when it holds a line break or a control character. */
export const singleLineMessage = (label: string) => `${label} cannot contain line breaks or control characters.`;

/**
 * An address a mail header cannot misread: one `local@domain.tld`, with none
 * of the characters that start a display name, a group, a comment or a second
 * address (`< > , ; : " ( ) [ ] \`), no spaces and no control characters.
 * Stricter than RFC 5322 on purpose: quoted local parts are legal and unheard of.
 */
const mailSafeEmail = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\.]+(?:\.[^\s@<>,;:"()[\]\\.]+)+$/;

export function isMailSafeEmail(value: string): boolean {
  return mailSafeEmail.test(value) && !controlCharacters.test(value);
}

/** A file name as shown to people: control characters and bidi overrides removed. */
export function displayFileName(name: string): string {
  return name.replace(controlCharactersGlobal, '');
}
