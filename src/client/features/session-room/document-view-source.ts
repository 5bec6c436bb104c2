/**
 * The document view source: the canvas the room's document viewer renders the
 * page on (pdf.js), registered here so the notary's recording can draw it
 * (docs/decisions/103-recording-composite.md). The last page registered stays
 * the recorded one after its tab is closed (the canvas keeps its pixels), so
 * the recording shows the page being worked on while the notary is on another
 * tab. Fields drawn over the page register an overlay: a cheap draw call the
 * recording makes after the page, in the page's box, every frame.
 */

export type DocumentOverlay = (context: CanvasRenderingContext2D, box: { x: number; y: number; width: number; height: number }) => void;

let page: HTMLCanvasElement | null = null;
const overlays = new Set<DocumentOverlay>();

export const documentViewSource = {
  /** The viewer's canvas (the page shown); replaces the one before. */
  register(canvas: HTMLCanvasElement): void {
    page = canvas;
  },
  /** A drawing over the page (the fields as they are filled); returns how to remove it. */
  addOverlay(overlay: DocumentOverlay): () => void {
    overlays.add(overlay);
    return () => void overlays.delete(overlay);
  },
  /** The page to record, if one was ever shown and has pixels. */
  page(): HTMLCanvasElement | null {
    return page && page.width > 0 && page.height > 0 ? page : null;
  },
  overlays(): Iterable<DocumentOverlay> {
    return overlays;
  },
  /** The room closed: nothing of it is kept. */
  clear(): void {
    page = null;
    overlays.clear();
  },
};
