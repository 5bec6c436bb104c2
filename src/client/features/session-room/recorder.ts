import {
  compositeBandHeight,
  compositeFramesPerSecond,
  compositeHeight,
  compositeWidth,
  recordingMessages,
  recordingTimesliceMs,
  utcClock,
} from '../../../shared/recording.ts';
import { cameraSourceFactory, type CameraSource, type CameraSourceFactory } from './camera-frames.ts';
import { documentViewSource, type DocumentOverlay } from './document-view-source.ts';

/**
 * Records the session in the notary's browser (docs/decisions/031 and
 * 103-recording-composite.md): one 1280×720 picture — the document view the
 * notary shares on the left, every participant's camera on the right, a band
 * with the booking reference and a burned-in UTC clock — and every voice
 * mixed with WebAudio, through one MediaRecorder (one timestamp base for
 * sound and picture). The cameras are drawn from their tracks' newest
 * `VideoFrame`s where the browser can (decision 130, `camera-frames.ts`). A dedicated worker's timer drives the drawing, so a
 * background tab keeps recording; each tick draws with drawImage only and
 * pushes exactly one frame (`captureStream(0)` + `requestFrame()`), so frames
 * are evenly spaced. A chunk every 2 s is uploaded at once (numbered, retried);
 * the notary is told at once when uploads fail or the recorder stops
 * producing chunks.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CompositeLayout {
  band: Box;
  document: Box;
  cameras: Box[];
}

/**
 * Where everything goes: the band across the top; the document in the left
 * half; the cameras in the right half, one column for one or two people, two
 * columns from three (up to five and beyond, rows as needed).
 */
export function compositeLayout(cameraCount: number): CompositeLayout {
  const top = compositeBandHeight;
  const height = compositeHeight - top;
  const half = compositeWidth / 2;
  const columns = cameraCount <= 2 ? 1 : 2;
  const rows = Math.max(1, Math.ceil(cameraCount / columns));
  const cell = { width: half / columns, height: height / rows };
  const cameras = Array.from({ length: cameraCount }, (_, index) => ({
    x: half + (index % columns) * cell.width,
    y: top + Math.floor(index / columns) * cell.height,
    width: cell.width,
    height: cell.height,
  }));
  return { band: { x: 0, y: 0, width: compositeWidth, height: top }, document: { x: 0, y: top, width: half, height }, cameras };
}

/** `width × height` scaled to fit inside `box` (a margin of `pad`), centred, proportions kept. */
export function fitInside(width: number, height: number, box: Box, pad = 4): Box {
  const room = { width: Math.max(1, box.width - 2 * pad), height: Math.max(1, box.height - 2 * pad) };
  const scale = Math.min(room.width / width, room.height / height);
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  return { x: Math.round(box.x + (box.width - w) / 2), y: Math.round(box.y + (box.height - h) / 2), width: w, height: h };
}

// ---- What the browser provides (replaced by fakes in recorder.test.ts) -------------

export interface Ticker {
  stop(): void;
}

/** A canvas track whose frames are pushed one by one. */
export interface FrameTrack {
  track: MediaStreamTrack;
  requestFrame(): void;
}

export interface AudioMix {
  track: MediaStreamTrack | null;
  add(stream: MediaStream): void;
  remove(stream: MediaStream): void;
  close(): Promise<void>;
}

export interface RecorderLike {
  readonly state: 'inactive' | 'recording' | 'paused';
  ondataavailable: ((event: { data: Blob }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  start(timesliceMs: number): void;
  stop(): void;
  addEventListener(type: 'stop', listener: () => void, options?: { once?: boolean }): void;
}

export type UploadAnswer = 'ok' | 'retry' | 'refused';

export interface RecorderEnv {
  createCanvas(width: number, height: number): HTMLCanvasElement;
  /** Calls `onTick` every `intervalMs`, in a background tab too. */
  startTicker(intervalMs: number, onTick: () => void): Ticker;
  captureFrames(canvas: HTMLCanvasElement): FrameTrack;
  /** How a participant's camera is read: its track's frames, or the `<video>` element itself. */
  cameraSource: CameraSourceFactory;
  createAudioMix(): AudioMix;
  createRecorder(tracks: MediaStreamTrack[]): RecorderLike;
  /** One try at sending chunk `seq`. */
  upload(recordingId: string, seq: number, blob: Blob): Promise<UploadAnswer>;
  wait(ms: number): Promise<void>;
  now(): number;
}

export type RecordingProblem = keyof Pick<typeof recordingMessages, 'uploadFailing' | 'uploadRefused' | 'recorderStalled'>;

export interface RecordingHandle {
  recordingId: string;
  /** Stops (the last chunk written, then the tracks), waits for every upload; resolves with the number of chunks sent. */
  stop(): Promise<number>;
  /** Chunks produced so far. */
  sent(): number;
  /** The cameras to draw, in order (someone joined, left or reconnected). */
  setVideos(videos: HTMLVideoElement[]): void;
  /** Mixes a voice in (a participant joined or reconnected with a new stream). */
  addAudio(stream: MediaStream): void;
  removeAudio(stream: MediaStream): void;
  /** Called with the current problem (null: all well) whenever it changes. */
  onProblem(listener: (problem: RecordingProblem | null) => void): () => void;
  /** The drawing rate achieved (frames pushed per second since the start). */
  framesPerSecond(): number;
}

export interface CompositeOptions {
  reference: string;
  videos: HTMLVideoElement[];
  audio: MediaStream[];
}

/** A camera's name tag (its bottom-left corner), in composite pixels. */
const nameTagWidth = 260;
const nameTagHeight = 26;
/** The page is redrawn every this many frames (4 times a second): it changes when a field is filled, not with every frame. */
const documentEveryFrames = 4;
/** The recorder says it is stuck when no chunk came for this many timeslices. */
const stallAfterTimeslices = 3;
const maxUploadAttempts = 21;

export function startCompositeRecording(recordingId: string, options: CompositeOptions, env: RecorderEnv = browserEnv()): RecordingHandle {
  const canvas = env.createCanvas(compositeWidth, compositeHeight);
  const context = canvas.getContext('2d', { alpha: false })!;
  let videos = [...options.videos];
  let layout = compositeLayout(videos.length);
  // One source per camera shown, kept while its element is in the list.
  const cameras = new Map<HTMLVideoElement, CameraSource>();
  const camera = (video: HTMLVideoElement) => cameras.get(video) ?? cameras.set(video, env.cameraSource(video)).get(video)!;
  // Whose camera each is (the element's `data-recording-name`), as a tag rendered once per name
  // and drawn in the camera's corner: in a room of several, the recording says who is who.
  const nameTags = new Map<string, HTMLCanvasElement>();
  const nameTag = (name: string) => {
    const known = nameTags.get(name);
    if (known) return known;
    const tag = env.createCanvas(nameTagWidth, nameTagHeight);
    const c = textStrip(tag, 'rgba(0, 0, 0, 0.75)', '600 16px sans-serif');
    c.fillText(name, 8, nameTagHeight / 2, nameTagWidth - 16);
    nameTags.set(name, tag);
    return tag;
  };
  // What does not change from frame to frame is drawn once: the background and the placeholder.
  const background = env.createCanvas(compositeWidth, compositeHeight);
  const placeholder = env.createCanvas(layout.document.width, layout.document.height);
  const band = env.createCanvas(compositeWidth, compositeBandHeight);
  const paintBackground = () => {
    const c = background.getContext('2d')!;
    c.fillStyle = '#0f172a';
    c.fillRect(0, 0, compositeWidth, compositeHeight);
    c.fillStyle = '#1e293b';
    for (const box of layout.cameras) c.fillRect(box.x + 2, box.y + 2, box.width - 4, box.height - 4);
  };
  paintBackground();
  {
    const c = placeholder.getContext('2d')!;
    c.fillStyle = '#334155';
    c.fillRect(0, 0, placeholder.width, placeholder.height);
    c.fillStyle = '#e2e8f0';
    c.font = '24px sans-serif';
    c.textAlign = 'center';
    c.fillText(recordingMessages.noDocument, placeholder.width / 2, placeholder.height / 2);
  }
  let bandSecond = -1;
  /** Renders the band when the second changes; true when it did. */
  const paintBand = (nowMs: number): boolean => {
    const second = Math.floor(nowMs / 1000);
    if (second === bandSecond) return false;
    bandSecond = second;
    const c = textStrip(band, '#000000', 'bold 24px monospace');
    c.fillText(options.reference, 16, compositeBandHeight / 2);
    c.textAlign = 'right';
    c.fillText(utcClock(new Date(second * 1000)), compositeWidth - 16, compositeBandHeight / 2);
    return true;
  };

  const frames = env.captureFrames(canvas);
  let framesPushed = 0;
  const startedAt = env.now();
  // Only what changes is drawn: the cameras every frame; the page a few times a second (fields
  // being filled); the band when its second changes; the background when the layout does.
  let repaint = true;
  let frameNumber = 0;
  let cameraBoxes: (Box | null)[] = [];
  const drawDocument = () => {
    const area = layout.document;
    const page = documentViewSource.page();
    if (!page) return context.drawImage(placeholder, area.x, area.y);
    context.fillStyle = '#334155';
    context.fillRect(area.x, area.y, area.width, area.height);
    const at = fitInside(page.width, page.height, area, 8);
    context.drawImage(page, at.x, at.y, at.width, at.height);
    for (const overlay of documentViewSource.overlays()) drawOverlay(overlay, context, at);
  };
  const draw = () => {
    const pictures = videos.map((video) => camera(video).picture());
    const boxes = pictures.map((picture, index) => {
      const box = layout.cameras[index];
      return box && picture ? fitInside(picture.width, picture.height, box) : null;
    });
    // Someone's picture appeared, went or changed shape: start again from the background.
    if (boxes.length !== cameraBoxes.length || boxes.some((box, i) => !sameBox(box, cameraBoxes[i] ?? null))) repaint = true;
    cameraBoxes = boxes;
    if (repaint) context.drawImage(background, 0, 0);
    boxes.forEach((at, index) => {
      if (!at) return;
      context.drawImage(pictures[index]!.image, at.x, at.y, at.width, at.height);
      const name = videos[index]!.dataset?.recordingName;
      if (name) context.drawImage(nameTag(name), at.x + 4, at.y + at.height - nameTagHeight - 4, Math.min(nameTagWidth, at.width - 8), nameTagHeight);
    });
    if (repaint || frameNumber % documentEveryFrames === 0) drawDocument();
    if (paintBand(Date.now()) || repaint) context.drawImage(band, 0, 0);
    repaint = false;
    frameNumber++;
    frames.requestFrame();
    framesPushed++;
  };

  const audio = env.createAudioMix();
  for (const stream of options.audio) audio.add(stream);
  const recorder = env.createRecorder([frames.track, ...(audio.track ? [audio.track] : [])]);

  // ---- The notary is told at once when something goes wrong --------------------------
  const listeners = new Set<(problem: RecordingProblem | null) => void>();
  let problem: RecordingProblem | null = null;
  const setProblem = (next: RecordingProblem | null) => {
    // A refusal stands until the recording is restarted.
    if (problem === next || problem === 'uploadRefused') return;
    problem = next;
    for (const listener of listeners) listener(problem);
  };

  let seq = 0;
  let lastChunkAt = env.now();
  let uploads: Promise<void> = Promise.resolve();
  let failure: Error | null = null;
  let stopping: Promise<number> | null = null;
  const send = async (number: number, blob: Blob) => {
    for (let attempt = 1; ; attempt++) {
      const answer = await env.upload(recordingId, number, blob).catch((): UploadAnswer => 'retry');
      if (answer === 'ok') {
        if (problem === 'uploadFailing') setProblem(null);
        return;
      }
      if (answer === 'refused') {
        setProblem('uploadRefused');
        throw new Error(recordingMessages.uploadRefused);
      }
      setProblem('uploadFailing');
      if (attempt >= maxUploadAttempts) throw new Error(recordingMessages.uploadFailing);
      await env.wait(Math.min(8000, 500 * 2 ** (attempt - 1)));
    }
  };
  recorder.ondataavailable = (event) => {
    if (!event.data.size) return;
    lastChunkAt = env.now();
    if (problem === 'recorderStalled') setProblem(null);
    const number = seq++;
    // In order, one at a time: the server accepts any order, but this keeps the bandwidth steady.
    uploads = uploads.then(() => send(number, event.data)).catch((error: Error) => {
      failure ??= error;
    });
  };
  recorder.onerror = () => setProblem('recorderStalled');

  const tick = () => {
    if (stopping) return;
    draw();
    if (env.now() - lastChunkAt > stallAfterTimeslices * recordingTimesliceMs) setProblem('recorderStalled');
  };
  draw();
  const ticker = env.startTicker(1000 / compositeFramesPerSecond, tick);
  recorder.start(recordingTimesliceMs);

  return {
    recordingId,
    sent: () => seq,
    framesPerSecond: () => framesPushed / Math.max(0.001, (env.now() - startedAt) / 1000),
    setVideos(next) {
      videos = [...next];
      for (const [video, source] of cameras) {
        if (videos.includes(video)) continue;
        source.close();
        cameras.delete(video);
      }
      if (layout.cameras.length !== videos.length) {
        layout = compositeLayout(videos.length);
        paintBackground();
        repaint = true;
      }
    },
    addAudio: (stream) => audio.add(stream),
    removeAudio: (stream) => audio.remove(stream),
    onProblem(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    stop() {
      stopping ??= (async () => {
        // The picture runs to the very end: one last frame, then the recorder ends both tracks
        // together; 'stop' comes after the last chunk, and only then are the sources stopped.
        draw();
        if (recorder.state !== 'inactive') {
          const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }));
          recorder.stop();
          await stopped;
        }
        ticker.stop();
        for (const source of cameras.values()) source.close();
        frames.track.stop();
        audio.track?.stop();
        await audio.close();
        await uploads;
        if (failure) throw failure;
        return seq;
      })();
      return stopping;
    },
  };
}

const sameBox = (a: Box | null, b: Box | null) => a === b || (!!a && !!b && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);

/** Paints `canvas` as a strip of `background`, ready for white text in `font`, centred vertically, from the left. */
function textStrip(canvas: HTMLCanvasElement, background: string, font: string): CanvasRenderingContext2D {
  const c = canvas.getContext('2d')!;
  c.fillStyle = background;
  c.fillRect(0, 0, canvas.width, canvas.height);
  c.fillStyle = '#ffffff';
  c.font = font;
  c.textBaseline = 'middle';
  c.textAlign = 'left';
  return c;
}

function drawOverlay(overlay: DocumentOverlay, context: CanvasRenderingContext2D, box: Box): void {
  context.save();
  try {
    overlay(context, box);
  } catch {
    // A broken overlay must not stop the recording.
  } finally {
    context.restore();
  }
}

// ---- The browser ---------------------------------------------------------------------

function pickMimeType(): string {
  const candidates = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'];
  return candidates.find((type) => MediaRecorder.isTypeSupported(type)) ?? 'video/webm';
}

/**
 * A worker's timer (not throttled in a background tab); the page's own timer if no worker can
 * start. The worker sends the next tick only once the page has drawn the last one, so a busy
 * page skips frames instead of piling up ticks (and Stop never waits behind a backlog).
 */
function workerTicker(intervalMs: number, onTick: () => void): Ticker {
  try {
    const worker = new Worker(new URL('./recorder-tick.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = () => {
      onTick();
      worker.postMessage({ drawn: true });
    };
    worker.postMessage({ intervalMs });
    return {
      stop() {
        worker.postMessage({ intervalMs: 0 });
        worker.terminate();
      },
    };
  } catch {
    const timer = setInterval(onTick, intervalMs);
    return { stop: () => clearInterval(timer) };
  }
}

function browserEnv(): RecorderEnv {
  return {
    createCanvas(width, height) {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      return canvas;
    },
    startTicker: workerTicker,
    cameraSource: cameraSourceFactory(),
    captureFrames(canvas) {
      const track = canvas.captureStream(0).getVideoTracks()[0] as MediaStreamTrack & { requestFrame(): void };
      return { track, requestFrame: () => track.requestFrame() };
    },
    createAudioMix() {
      const audio = new AudioContext();
      const destination = audio.createMediaStreamDestination();
      const sources = new Map<MediaStream, MediaStreamAudioSourceNode>();
      return {
        track: destination.stream.getAudioTracks()[0] ?? null,
        add(stream) {
          if (sources.has(stream) || stream.getAudioTracks().length === 0) return;
          const source = audio.createMediaStreamSource(stream);
          source.connect(destination);
          sources.set(stream, source);
        },
        remove(stream) {
          sources.get(stream)?.disconnect();
          sources.delete(stream);
        },
        close: () => audio.close(),
      };
    },
    createRecorder(tracks) {
      // A key frame every 2 s (Chromium 121+; ignored elsewhere): the stored file's cues point to them.
      const options = { mimeType: pickMimeType(), videoBitsPerSecond: 1_500_000, audioBitsPerSecond: 64_000, videoKeyFrameIntervalDuration: 2000 };
      return new MediaRecorder(new MediaStream(tracks), options) as unknown as RecorderLike;
    },
    async upload(recordingId, seq, blob) {
      const res = await fetch(`/api/session/recordings/${recordingId}/chunks/${seq}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: blob,
        credentials: 'same-origin',
      });
      if (res.ok) return 'ok';
      // Refusals (signed out, room closed, bad chunk) do not get better by retrying.
      return res.status >= 400 && res.status < 500 && res.status !== 429 ? 'refused' : 'retry';
    },
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => performance.now(),
  };
}
