import { useEffect, useRef, useState } from 'react';
import '@fontsource/dancing-script/400.css';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';

/**
 * Adopting a signature: typed (the name set in a script font) or drawn with
 * a finger, pen or mouse. Either way the result is a PNG, which is what the
 * sealed PDF carries. Typing is the keyboard-only way.
 */
export interface AdoptedSignature {
  kind: 'typed' | 'drawn';
  text?: string;
  png: string;
}

const scriptFont = '"Dancing Script", "Brush Script MT", cursive';

async function typedPng(text: string): Promise<string> {
  await document.fonts.load(`64px ${scriptFont}`).catch(() => undefined);
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  ctx.font = `64px ${scriptFont}`;
  const width = Math.ceil(ctx.measureText(text).width) + 40;
  canvas.width = Math.min(Math.max(width, 200), 1200);
  canvas.height = 110;
  ctx.font = `64px ${scriptFont}`;
  ctx.fillStyle = '#0b1f5c';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 20, 58, canvas.width - 40);
  return canvas.toDataURL('image/png');
}

export function SignaturePad({ signerName, onAdopt, busy, initials = false }: { signerName: string; onAdopt: (signature: AdoptedSignature) => void; busy: boolean; initials?: boolean }) {
  const [mode, setMode] = useState<'typed' | 'drawn'>('typed');
  const [text, setText] = useState(signerName);
  const [drawn, setDrawn] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || mode !== 'drawn') return;
    const ctx = canvas.getContext('2d')!;
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#0b1f5c';
  }, [mode]);

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) / rect.width) * event.currentTarget.width, y: ((event.clientY - rect.top) / rect.height) * event.currentTarget.height };
  };

  return (
    <div className="grid gap-3">
      <fieldset className="flex gap-4 text-sm">
        <legend className="mb-1 font-medium text-slate-800">{initials ? 'How do you want to initial?' : 'How do you want to sign?'}</legend>
        {(['typed', 'drawn'] as const).map((value) => (
          <label key={value} className="flex items-center gap-1.5">
            <input type="radio" name="signature-mode" value={value} checked={mode === value} onChange={() => setMode(value)} />
            {value === 'typed' ? (initials ? 'Type my initials' : 'Type my name') : initials ? 'Draw my initials' : 'Draw my signature'}
          </label>
        ))}
      </fieldset>
      {mode === 'typed' ? (
        <div className="grid gap-1.5">
          <Label htmlFor="signature-text">{initials ? 'Your initials' : 'Your full name'}</Label>
          <Input id="signature-text" value={text} maxLength={120} onChange={(e) => setText(e.target.value)} />
          <p aria-hidden="true" className="min-h-14 rounded-md border border-slate-200 bg-white px-3 text-4xl text-blue-950" style={{ fontFamily: scriptFont }}>
            {text}
          </p>
        </div>
      ) : (
        <div className="grid gap-1.5">
          <canvas
            ref={canvasRef}
            width={600}
            height={180}
            role="img"
            aria-label={initials ? 'Initials drawing area' : 'Signature drawing area'}
            className="h-36 w-full touch-none rounded-md border border-slate-400 bg-white"
            onPointerDown={(e) => {
              drawing.current = true;
              e.currentTarget.setPointerCapture(e.pointerId);
              const ctx = e.currentTarget.getContext('2d')!;
              const p = point(e);
              ctx.beginPath();
              ctx.moveTo(p.x, p.y);
            }}
            onPointerMove={(e) => {
              if (!drawing.current) return;
              const ctx = e.currentTarget.getContext('2d')!;
              const p = point(e);
              ctx.lineTo(p.x, p.y);
              ctx.stroke();
              setDrawn(true);
            }}
            onPointerUp={() => (drawing.current = false)}
          />
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="w-fit"
            onClick={() => {
              const canvas = canvasRef.current!;
              canvas.getContext('2d')!.clearRect(0, 0, canvas.width, canvas.height);
              setDrawn(false);
            }}
          >
            Clear
          </Button>
        </div>
      )}
      <Button
        type="button"
        className="w-fit"
        disabled={busy || (mode === 'typed' ? !text.trim() : !drawn)}
        onClick={async () => {
          if (mode === 'typed') onAdopt({ kind: 'typed', text: text.trim(), png: await typedPng(text.trim()) });
          else onAdopt({ kind: 'drawn', png: canvasRef.current!.toDataURL('image/png') });
        }}
      >
        {initials ? 'Adopt and initial' : 'Adopt and sign'}
      </Button>
    </div>
  );
}
