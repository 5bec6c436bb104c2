/**
 * Produces the site's raster images from SVG drawn here, so no image comes
 * from the network and every one can be regenerated:
 *   node scripts/build-images.ts
 * - public/images/blog/<slug>.{webp,avif} (1200x675) and <slug>-600.{webp,avif}
 *   for every post in content/blog (the cover follows the post's category);
 * - public/og-image.png (1200x630) for link previews.
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
  await sharp(Buffer.from(ogSvg())).png({ compressionLevel: 9, palette: true }).toFile(path.join(root, 'public/og-image.png'));
  console.log('og-image.png');
}

await main();
