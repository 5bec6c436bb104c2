import { fullAddress, site } from '../../../shared/site.ts';

/**
 * An email is a list of blocks rendered twice: as branded HTML (inline styles,
 * table layout — what mail programs understand) and as the plain-text part.
 * Writing the content once keeps the two parts saying the same thing.
 */
export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'facts'; rows: [label: string, value: string][] }
  | { type: 'list'; title?: string; items: string[] }
  | { type: 'button'; label: string; href: string }
  | { type: 'note'; text: string };

export interface EmailContent {
  subject: string;
  heading: string;
  /** The first line mail programs show in the inbox list. */
  preheader?: string;
  blocks: Block[];
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const multiline = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

function blockHtml(block: Block): string {
  switch (block.type) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#0f172a">${multiline(block.text)}</p>`;
    case 'note':
      return `<p style="margin:0 0 16px;padding:12px 16px;border-radius:6px;background:#eff6ff;font-size:14px;line-height:22px;color:#1e3a8a">${multiline(block.text)}</p>`;
    case 'facts':
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:0 0 16px;border-collapse:collapse">${block.rows
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="padding:8px 12px 8px 0;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top;font-size:14px;font-weight:600;color:#475569;white-space:nowrap">${escapeHtml(label)}</th><td style="padding:8px 0;border-bottom:1px solid #e2e8f0;font-size:14px;line-height:22px;color:#0f172a">${multiline(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'list':
      return `${block.title ? `<p style="margin:0 0 8px;font-size:16px;font-weight:600;color:#0f172a">${escapeHtml(block.title)}</p>` : ''}<ul style="margin:0 0 16px;padding-left:20px;font-size:15px;line-height:24px;color:#0f172a">${block.items
        .map((item) => `<li>${escapeHtml(item)}</li>`)
        .join('')}</ul>`;
    case 'button':
      return `<p style="margin:8px 0 24px"><a href="${escapeHtml(block.href)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:#1d4ed8;color:#ffffff;font-size:15px;font-weight:600;text-decoration:none">${escapeHtml(block.label)}</a></p>`;
  }
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'paragraph':
    case 'note':
      return block.text;
    case 'facts':
      return block.rows.map(([label, value]) => `${label}: ${value.includes('\n') ? `\n${value}` : value}`).join('\n');
    case 'list':
      return `${block.title ? `${block.title}\n` : ''}${block.items.map((item) => `- ${item}`).join('\n')}`;
    case 'button':
      return `${block.label}: ${block.href}`;
  }
}

export function renderEmail(content: EmailContent, publicUrl: string): { subject: string; html: string; text: string } {
  // Links may be written site-relative; mail needs absolute ones.
  const blocks = content.blocks.map((b) => (b.type === 'button' ? { ...b, href: new URL(b.href, `${publicUrl}/`).toString() } : b));
  const footerText = `${site.legalName} · ${fullAddress} · ${site.phone} · ${site.email}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif">
${content.preheader ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preheader)}</div>` : ''}
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;background:#f1f5f9"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="padding:20px 24px;background:#1e3a8a"><a href="${escapeHtml(publicUrl)}" style="color:#ffffff;font-size:20px;font-weight:700;text-decoration:none">${escapeHtml(site.brand)}</a></td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;color:#0f172a">${escapeHtml(content.heading)}</h1>
${blocks.map(blockHtml).join('\n')}
</td></tr>
<tr><td style="padding:16px 24px;background:#f8fafc;font-size:12px;line-height:18px;color:#475569">${escapeHtml(footerText)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = [content.heading, '', ...blocks.map((b) => `${blockText(b)}\n`), '--', footerText, publicUrl, ''].join('\n');
  return { subject: content.subject, html, text };
}
