import { foldLine } from '../../../shared/calendar.ts';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { MailMessage } from '../../adapters/mail/index.ts';

/**
 * Secrets in emails (private links: the manage link, a staff invitation, a
 * session join link…) never sit in the outbox in the clear
 * (docs/decisions/023-secrets-at-rest.md).
 *
 * HOW TO ADD AN EMAIL THAT CARRIES A PRIVATE LINK
 *   1. Put `secretPlaceholder('name')` wherever the secret goes — inside the URL
 *      you build for the template, the text, the HTML or an .ics attachment:
 *        const url = `${publicUrl}/booking/${secretPlaceholder('manage_token')}`;
 *   2. Pass the raw value to the enqueue call as `secrets: { name: rawValue }`
 *      (events.ts `enqueue`, or `enqueueMail` with `sealOutboxSecrets`).
 *      For the manage link of a booking whose token you no longer hold (a
 *      reminder, "your document is ready"), customer-links' `openConfirmationLink` gives it back.
 *   3. Nothing else: the outbox stores the message with the placeholder and the
 *      value sealed with the data-encryption key; the worker substitutes it at
 *      send time and drops the sealed value once the message is accepted. The
 *      staff console shows '[private link hidden]' in its place.
 * Placeholders are letters, digits and underscores only, so URL encoding, HTML
 * escaping and iCalendar TEXT escaping leave them intact; .ics attachments are
 * unfolded before the substitution and folded again after it.
 */
export function secretPlaceholder(name: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`secret name must be snake_case: ${name}`);
  return `__secret_${name}__`;
}

const placeholderPattern = /__secret_([a-z][a-z0-9_]*)__/g;

const purpose = (name: string) => `outbox-secret:${name}`;

/** Raw values → sealed values, for the outbox row. */
export function sealOutboxSecrets(box: SecretBox, secrets: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, box.seal(value, purpose(name))]));
}

/** The message as it must be sent: every placeholder replaced by its opened secret. Throws if one is missing. */
export function fillSecrets<M extends Omit<MailMessage, 'messageId'>>(box: SecretBox, message: M, sealed: Record<string, string> = {}): M {
  const opened = new Map<string, string>();
  const valueOf = (name: string) => {
    if (!opened.has(name)) {
      const value = sealed[name];
      if (!value) throw new Error(`outbox message has no value for secret "${name}"`);
      opened.set(name, box.openText(value, purpose(name)));
    }
    return opened.get(name)!;
  };
  return mapMessageText(message, (text) => text.replace(placeholderPattern, (_m, name: string) => valueOf(name)));
}

/** The message with every placeholder (and every legacy raw secret) shown as `replacement` — the staff console's view. */
export function hideSecrets<M extends Omit<MailMessage, 'messageId'>>(message: M, replacement: string, legacyRawSecrets: string[] = []): M {
  return mapMessageText(message, (text) => {
    const hidden = text.replace(placeholderPattern, replacement);
    return legacyRawSecrets.reduce((acc, secret) => (secret ? acc.split(secret).join(replacement) : acc), hidden);
  });
}

function mapMessageText<M extends Omit<MailMessage, 'messageId'>>(message: M, map: (text: string) => string): M {
  return {
    ...message,
    text: map(message.text),
    html: map(message.html),
    attachments: message.attachments?.map((a) => ({
      ...a,
      content: a.contentType.startsWith('text/calendar') ? mapCalendar(a.content, map) : map(a.content),
    })),
  };
}

/** RFC 5545 §3.1: a placeholder may straddle a fold; work on whole content lines and fold again. */
function mapCalendar(ics: string, map: (text: string) => string): string {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  return lines.map((line) => (line === '' ? line : foldLine(map(line)))).join('\r\n');
}
