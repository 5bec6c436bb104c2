/**
 * Produces the site's raster images from SVG drawn here, so no image comes
 * from the network and every one can be regenerated:
 *   node scripts/build-images.ts
 * - public/images/blog/<slug>.{webp,avif} (1200x675) and <slug>-600.{webp,avif}
 *   for every post in content/blog (the cover follows the post's category);
 * - public/og-image.png (1200x630) for link previews;
 * - public/images/heroes/<page>.{webp,avif} (1120x880, shown at 560x440 like the
 *   home page's illustration) and <page>-560.{webp,avif}: one per marketing page.
 * Outputs are committed; rerun after adding a post.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { readBlogIndex } from '../src/build/content.ts';
import type { BlogCategory } from '../src/shared/blog.ts';

const root = process.cwd();
const blogDir = path.join(root, 'public/images/blog');

const palettes: Record<BlogCategory, { from: string; to: string; accent: string }> = {
  Notarization: { from: '#1e3a8a', to: '#2563eb', accent: '#fbbf24' },
  'E-Signatures': { from: '#312e81', to: '#6366f1', accent: '#a5f3fc' },
  'Legal Tips': { from: '#134e4a', to: '#0d9488', accent: '#fde68a' },
  'Document Security': { from: '#1f2937', to: '#475569', accent: '#34d399' },
  'Industry News': { from: '#7c2d12', to: '#ea580c', accent: '#fef3c7' },
  Technology: { from: '#0c4a6e', to: '#0284c7', accent: '#f0abfc' },
};

/** A document sheet with text lines, the shared motif of every cover. */
function documentSheet(x: number, y: number, w: number, h: number, rotate: number): string {
  const lines = Array.from({ length: 7 }, (_, i) => {
    const ly = y + 70 + i * 38;
    const lw = i % 3 === 2 ? w * 0.45 : w * 0.7;
    return `<rect x="${x + 40}" y="${ly}" width="${lw}" height="12" rx="6" fill="#cbd5e1"/>`;
  }).join('');
  return `<g transform="rotate(${rotate} ${x + w / 2} ${y + h / 2})">
    <rect x="${x + 10}" y="${y + 14}" width="${w}" height="${h}" rx="18" fill="#0f172a" opacity="0.25"/>
    <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="18" fill="#ffffff"/>
    ${lines}
    <path d="M${x + 40} ${y + h - 70} c 30 -40 50 30 80 -5 s 40 -20 70 0" stroke="#1e3a8a" stroke-width="6" fill="none" stroke-linecap="round"/>
  </g>`;
}

/** One motif per category, drawn to the right of the sheet. */
function motif(category: BlogCategory, accent: string, variant: number): string {
  const cx = 820;
  const cy = 330 + (variant % 3) * 10;
  switch (category) {
    case 'Notarization':
      return `<circle cx="${cx}" cy="${cy}" r="130" fill="${accent}"/><circle cx="${cx}" cy="${cy}" r="100" fill="none" stroke="#1e3a8a" stroke-width="10" stroke-dasharray="18 10"/>
        <path d="M${cx - 50} ${cy} l35 35 l70 -75" stroke="#1e3a8a" stroke-width="22" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`;
    case 'E-Signatures':
      return `<rect x="${cx - 150}" y="${cy - 120}" width="300" height="240" rx="26" fill="#0f172a"/><rect x="${cx - 130}" y="${cy - 100}" width="260" height="200" rx="12" fill="#f8fafc"/>
        <path d="M${cx - 100} ${cy + 30} c 30 -70 60 40 90 -10 s 50 -40 100 -10" stroke="#4338ca" stroke-width="8" fill="none" stroke-linecap="round"/>
        <rect x="${cx + 90}" y="${cy - 170}" width="22" height="170" rx="8" transform="rotate(35 ${cx + 100} ${cy - 80})" fill="${accent}"/>`;
    case 'Legal Tips':
      return `<rect x="${cx - 8}" y="${cy - 140}" width="16" height="260" fill="${accent}"/><rect x="${cx - 160}" y="${cy - 130}" width="320" height="14" rx="7" fill="${accent}"/>
        <path d="M${cx - 150} ${cy - 116} l-50 110 h100 z M${cx + 150} ${cy - 116} l-50 110 h100 z" fill="none" stroke="${accent}" stroke-width="8"/>
        <path d="M${cx - 200} ${cy - 6} a50 26 0 0 0 100 0 z M${cx + 100} ${cy - 6} a50 26 0 0 0 100 0 z" fill="${accent}"/>
        <rect x="${cx - 80}" y="${cy + 120}" width="160" height="22" rx="8" fill="${accent}"/>`;
    case 'Document Security':
      return `<rect x="${cx - 120}" y="${cy - 20}" width="240" height="190" rx="28" fill="${accent}"/>
        <path d="M${cx - 75} ${cy - 20} v-60 a75 75 0 0 1 150 0 v60" fill="none" stroke="${accent}" stroke-width="30"/>
        <circle cx="${cx}" cy="${cy + 60}" r="24" fill="#1f2937"/><rect x="${cx - 9}" y="${cy + 70}" width="18" height="50" rx="6" fill="#1f2937"/>`;
    case 'Industry News':
      return `${[0, 1, 2, 3].map((i) => `<rect x="${cx - 150 + i * 80}" y="${cy + 120 - (i + 1) * 55}" width="56" height="${(i + 1) * 55}" rx="8" fill="${accent}"/>`).join('')}
        <path d="M${cx - 160} ${cy - 40} L${cx - 60} ${cy - 90} L${cx + 20} ${cy - 60} L${cx + 150} ${cy - 170}" stroke="#ffffff" stroke-width="12" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`;
    case 'Technology':
      return `<rect x="${cx - 170}" y="${cy - 110}" width="340" height="220" rx="20" fill="#0f172a"/><rect x="${cx - 150}" y="${cy - 90}" width="300" height="180" rx="10" fill="#e0f2fe"/>
        <circle cx="${cx}" cy="${cy - 15}" r="40" fill="${accent}"/><path d="M${cx - 70} ${cy + 80} a70 60 0 0 1 140 0 z" fill="${accent}"/>
        <rect x="${cx - 210}" y="${cy + 110}" width="420" height="24" rx="10" fill="#0f172a"/>`;
  }
}

function coverSvg(category: BlogCategory, variant: number): string {
  const p = palettes[category];
  const bubbles = Array.from({ length: 6 }, (_, i) => {
    const x = ((variant * 137 + i * 211) % 1100) + 50;
    const y = ((variant * 89 + i * 157) % 600) + 40;
    return `<circle cx="${x}" cy="${y}" r="${30 + ((i * 17 + variant * 7) % 60)}" fill="#ffffff" opacity="0.07"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675" viewBox="0 0 1200 675">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.from}"/><stop offset="1" stop-color="${p.to}"/></linearGradient></defs>
    <rect width="1200" height="675" fill="url(#g)"/>
    ${bubbles}
    ${documentSheet(170, 120, 360, 440, -6 + (variant % 4) * 3)}
    ${motif(category, p.accent, variant)}
  </svg>`;
}

// ---- Marketing heroes: 560x440 scenes in the home illustration's style (dark device, light panels, gold seal).

const ink = '#0f172a';
const shadow = `<ellipse cx="280" cy="410" rx="240" ry="18" fill="${ink}" opacity=".18"/>`;
const textLines = (x: number, y: number, widths: number[], gap = 18, fill = '#cbd5e1') =>
  widths.map((w, i) => `<rect x="${x}" y="${y + i * gap}" width="${w}" height="9" rx="4.5" fill="${fill}"/>`).join('');
const seal = (cx: number, cy: number, r = 28) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#fbbf24"/><circle cx="${cx}" cy="${cy}" r="${r - 8}" fill="none" stroke="#92400e" stroke-width="3" stroke-dasharray="6 4"/>
   <path d="M${cx - 10} ${cy}l7 7 14-15" stroke="#92400e" stroke-width="5" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`;
const signature = (x: number, y: number, color = '#1e3a8a', width = 4) =>
  `<path d="M${x} ${y}c10-12 18 6 28-2s14-6 24 0 14-10 26-4" stroke="${color}" stroke-width="${width}" fill="none" stroke-linecap="round"/>`;
const check = (cx: number, cy: number, r = 26, fill = '#34d399') =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/><path d="M${cx - 12} ${cy}l8 8 16-17" stroke="#ffffff" stroke-width="6" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`;
const person = (cx: number, cy: number, skin = '#fcd34d', scale = 1) =>
  `<circle cx="${cx}" cy="${cy}" r="${24 * scale}" fill="${skin}"/><path d="M${cx - 38 * scale} ${cy + 68 * scale}a${38 * scale} ${36 * scale} 0 0 1 ${76 * scale} 0z" fill="${skin}"/>`;
const paper = (x: number, y: number, w: number, h: number, body: string, rotate = 0) =>
  `<g transform="rotate(${rotate} ${x + w / 2} ${y + h / 2})"><rect x="${x + 6}" y="${y + 8}" width="${w}" height="${h}" rx="12" fill="${ink}" opacity=".15"/>
   <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="12" fill="#ffffff" stroke="#cbd5e1" stroke-width="2"/>${body}</g>`;

const heroes: Record<string, string> = {
  // A video session: notary and signer side by side, the document sealed beside them.
  'remote-notarization': `${shadow}
    <rect x="40" y="70" width="360" height="240" rx="18" fill="${ink}"/><rect x="56" y="86" width="328" height="208" rx="8" fill="#e0f2fe"/>
    <rect x="70" y="104" width="146" height="176" rx="10" fill="#1e3a8a"/>${person(143, 170)}
    <rect x="224" y="104" width="146" height="176" rx="10" fill="#1d4ed8"/>${person(297, 170, '#bfdbfe')}
    <rect x="262" y="114" width="70" height="18" rx="9" fill="#ffffff" opacity=".9"/><rect x="272" y="120" width="50" height="6" rx="3" fill="#1d4ed8"/>
    <path d="M20 310h420l-24 28H44z" fill="#334155"/><rect x="190" y="312" width="80" height="8" rx="4" fill="#64748b"/>
    ${paper(372, 150, 150, 196, `${textLines(390, 172, [110, 96, 110, 70], 20)}${signature(390, 300)}${seal(478, 298)}`, 8)}
    <circle cx="62" cy="52" r="14" fill="#f87171"/><circle cx="62" cy="52" r="6" fill="#ffffff"/>`,

  // A document with a signature being drawn, a pen, and the signed confirmation.
  'electronic-signatures': `${shadow}
    ${paper(90, 40, 260, 340, `${textLines(116, 76, [190, 170, 200, 120, 190, 160], 22)}
      <rect x="116" y="250" width="200" height="70" rx="10" fill="#eef2ff" stroke="#6366f1" stroke-width="2" stroke-dasharray="8 6"/>
      ${signature(132, 292, '#4338ca', 5)}<rect x="116" y="334" width="120" height="8" rx="4" fill="#94a3b8"/>`, -4)}
    <g transform="rotate(38 380 230)"><rect x="368" y="110" width="26" height="190" rx="10" fill="#4338ca"/><rect x="368" y="110" width="26" height="34" rx="10" fill="#a5b4fc"/>
      <path d="M368 300h26l-13 30z" fill="#fbbf24"/><path d="M377 318h8l-4 12z" fill="${ink}"/></g>
    <rect x="360" y="70" width="170" height="96" rx="16" fill="${ink}"/>${check(400, 118, 22)}
    ${textLines(432, 102, [80, 60], 20, '#e2e8f0')}`,

  // An ID card and a live selfie in a scanning frame, matched.
  'identity-verification': `${shadow}
    <g transform="rotate(-6 190 230)"><rect x="50" y="130" width="290" height="180" rx="18" fill="#ffffff" stroke="#cbd5e1" stroke-width="2"/>
      <rect x="50" y="130" width="290" height="40" rx="18" fill="#1e3a8a"/><rect x="50" y="150" width="290" height="20" fill="#1e3a8a"/>
      <rect x="72" y="190" width="92" height="100" rx="10" fill="#dbeafe"/>${person(118, 226, '#fcd34d', 0.75)}
      ${textLines(184, 196, [130, 110, 130, 80], 20)}<rect x="70" y="142" width="90" height="14" rx="7" fill="#fbbf24"/></g>
    <rect x="340" y="60" width="180" height="300" rx="26" fill="${ink}"/><rect x="352" y="80" width="156" height="260" rx="14" fill="#e0f2fe"/>
    <path d="M372 120v-20h20M488 120v-20h-20M372 300v20h20M488 300v20h-20" stroke="#0284c7" stroke-width="5" fill="none" stroke-linecap="round"/>
    ${person(430, 180, '#fcd34d', 1.1)}<rect x="372" y="206" width="116" height="4" rx="2" fill="#0284c7" opacity=".7"/>
    ${check(500, 86, 24)}
    <path d="M250 330c40 30 80 30 110 0" stroke="#94a3b8" stroke-width="4" stroke-dasharray="6 8" fill="none"/>`,

  // Folders and a stack of sealed documents in a locked vault.
  'document-management': `${shadow}
    <rect x="60" y="120" width="250" height="230" rx="20" fill="${ink}"/>
    ${[0, 1, 2].map((i) => `<path d="M80 ${150 + i * 64}h70l14 14h126v40H80z" fill="${['#2563eb', '#0d9488', '#f59e0b'][i]}"/>
      <rect x="96" y="${176 + i * 64}" width="${[120, 90, 140][i]}" height="8" rx="4" fill="#ffffff" opacity=".8"/>`).join('')}
    ${paper(300, 70, 170, 220, `${textLines(320, 96, [120, 100, 130, 90, 120], 20)}${seal(424, 248, 24)}`, 6)}
    ${paper(330, 110, 170, 220, `${textLines(350, 136, [120, 100, 130, 90, 120], 20)}${signature(350, 280)}${seal(454, 288, 24)}`, 12)}
    <rect x="250" y="300" width="90" height="70" rx="14" fill="#fbbf24"/><path d="M268 300v-22a27 27 0 0 1 54 0v22" fill="none" stroke="#fbbf24" stroke-width="12"/>
    <circle cx="295" cy="330" r="9" fill="${ink}"/><rect x="291" y="334" width="8" height="20" rx="3" fill="${ink}"/>`,

  // An office building, many documents moving through one notarization flow.
  'business-solutions': `${shadow}
    <rect x="50" y="90" width="170" height="290" rx="10" fill="#1e3a8a"/>
    ${Array.from({ length: 12 }, (_, i) => `<rect x="${70 + (i % 3) * 48}" y="${112 + Math.floor(i / 3) * 58}" width="34" height="38" rx="4" fill="${i % 4 === 1 ? '#fbbf24' : '#bfdbfe'}"/>`).join('')}
    <rect x="108" y="340" width="54" height="40" rx="4" fill="${ink}"/>
    ${[0, 1, 2].map((i) => paper(250 + i * 22, 70 + i * 26, 150, 190, `${textLines(270 + i * 22, 94 + i * 26, [100, 84, 110, 70], 20)}${i === 2 ? seal(370 + i * 22, 216 + i * 26, 24) : ''}`, -4 + i * 5)).join('')}
    <path d="M228 300h60" stroke="#94a3b8" stroke-width="5" stroke-dasharray="8 8" stroke-linecap="round"/>
    <rect x="300" y="300" width="210" height="70" rx="16" fill="${ink}"/>
    ${[0, 1, 2, 3].map((i) => `<rect x="${320 + i * 44}" y="${350 - (i + 1) * 10}" width="26" height="${(i + 1) * 10 + 4}" rx="4" fill="#34d399"/>`).join('')}
    ${check(480, 300, 22)}`,
};

function heroSvg(body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="440" viewBox="0 0 560 440">${body}</svg>`;
}

function ogSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e3a8a"/><stop offset="1" stop-color="#2563eb"/></linearGradient></defs>
    <rect width="1200" height="630" fill="url(#g)"/>
    <circle cx="1050" cy="90" r="160" fill="#ffffff" opacity="0.06"/><circle cx="120" cy="560" r="120" fill="#ffffff" opacity="0.06"/>
    <rect x="80" y="80" width="88" height="88" rx="20" fill="#ffffff"/>
    <path d="M103 146V102h11l29 31V102h11v44h-11l-29-31v31z" fill="#1d4ed8"/>
    <text x="190" y="140" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="48" font-weight="700" fill="#ffffff">NotaryOnline</text>
    <text x="80" y="300" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="54" font-weight="700" fill="#ffffff">Get documents notarized online,</text>
    <text x="80" y="380" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="54" font-weight="700" fill="#ffffff">24/7, from anywhere in the U.S.</text>
    <rect x="80" y="450" width="330" height="84" rx="42" fill="#fbbf24"/>
    <text x="245" y="505" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="34" font-weight="700" fill="#1e293b">$25 per session</text>
    <text x="450" y="505" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="30" fill="#dbeafe">Legally binding in all 50 states</text>
  </svg>`;
}

async function main() {
  mkdirSync(blogDir, { recursive: true });
  const posts = readBlogIndex(path.join(root, 'content'));
  for (const [index, post] of posts.entries()) {
    const base = path.join(root, 'public', post.image.replace(/\.webp$/, ''));
    const svg = Buffer.from(coverSvg(post.category, index));
    for (const width of [1200, 600]) {
      const suffix = width === 1200 ? '' : `-${width}`;
      const image = sharp(svg, { density: 72 * (width / 1200) * 2 }).resize(width, Math.round((width * 675) / 1200));
      await image.clone().webp({ quality: 78 }).toFile(`${base}${suffix}.webp`);
      await image.clone().avif({ quality: 55, effort: 5 }).toFile(`${base}${suffix}.avif`);
    }
    console.log(`cover: ${post.slug}`);
  }
  const heroDir = path.join(root, 'public/images/heroes');
  mkdirSync(heroDir, { recursive: true });
  for (const [name, body] of Object.entries(heroes)) {
    const svg = Buffer.from(heroSvg(body));
    for (const width of [1120, 560]) {
      const suffix = width === 1120 ? '' : `-${width}`;
      const image = sharp(svg, { density: 72 * (width / 560) }).resize(width, Math.round((width * 440) / 560));
      await image.clone().webp({ quality: 80 }).toFile(path.join(heroDir, `${name}${suffix}.webp`));
      await image.clone().avif({ quality: 55, effort: 5 }).toFile(path.join(heroDir, `${name}${suffix}.avif`));
    }
    console.log(`hero: ${name}`);
  }
  await sharp(Buffer.from(ogSvg())).png({ compressionLevel: 9, palette: true }).toFile(path.join(root, 'public/og-image.png'));
  console.log('og-image.png');
}

await main();
