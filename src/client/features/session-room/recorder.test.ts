import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compositeBandHeight, compositeFramesPerSecond, compositeHeight, compositeWidth, minimumFramesPerSecond, recordingMessages, recordingTimesliceMs, utcClock } from '../../../shared/recording.ts';
import { documentViewSource } from './document-view-source.ts';
import { elementSource, type CameraPicture, type CameraSourceFactory } from './camera-frames.ts';
import { compositeLayout, fitInside, startCompositeRecording, type Box, type RecorderEnv, type RecorderLike, type UploadAnswer } from './recorder.ts';

/**
 * The recorder's logic with fakes for the browser (canvas, worker ticker,
 * MediaRecorder, WebAudio, fetch): the layout, what each tick draws and
 * pushes, the clock, the stop order, and the warnings the notary sees.
 */

type Call = [string, ...unknown[]];

function fakeCanvas(width: number, height: number, name: string, log: Call[]) {
  const context = new Proxy(
    { fillStyle: '', font: '', textAlign: '', textBaseline: '' } as Record<string, unknown>,
    {
      get(target, prop: string) {
        if (prop in target) return target[prop];
        return (...args: unknown[]) => void log.push([`${name}.${prop}`, ...args]);
      },
      set(target, prop: string, value) {
        target[prop] = value;
        return true;
      },
    },
  );
  return { width, height, name, getContext: () => context } as unknown as HTMLCanvasElement & { name: string };
}

const video = (width: number, height: number) => ({ readyState: 4, videoWidth: width, videoHeight: height }) as HTMLVideoElement;

function harness(options: { upload?: (seq: number) => UploadAnswer; cameraSource?: CameraSourceFactory } = {}) {
  const log: Call[] = [];
  const events: string[] = [];
  let clock = 0;
  let tick: (() => void) | null = null;
  let intervalMs = 0;
  const recorder: Omit<RecorderLike, 'state'> & { state: RecorderLike['state']; listeners: (() => void)[]; emit(bytes: number): void } = {
    state: 'inactive',
    ondataavailable: null,
    onerror: null,
    listeners: [],
    start() {
      this.state = 'recording';
    },
    stop() {
      events.push('recorder.stop');
      this.state = 'inactive';
      // As MediaRecorder does: the last chunk, then 'stop' (asynchronously).
      setTimeout(() => {
        this.emit(10);
        events.push('stop event');
        for (const listener of this.listeners) listener();
      }, 0);
    },
    addEventListener(_type, listener) {
      this.listeners.push(listener);
    },
    emit(bytes: number) {
      events.push('dataavailable');
      this.ondataavailable?.({ data: new Blob([new Uint8Array(bytes)]) });
    },
  };
  const uploaded: number[] = [];
  const canvases: (HTMLCanvasElement & { name: string })[] = [];
  const env: RecorderEnv = {
    createCanvas: (w, h) => {
      const canvas = fakeCanvas(w, h, ['composite', 'background', 'placeholder', 'band'][canvases.length] ?? 'extra', log);
      canvases.push(canvas);
      return canvas;
    },
    startTicker(ms, onTick) {
      intervalMs = ms;
      tick = onTick;
      return { stop: () => void events.push('ticker.stop') };
    },
    cameraSource: options.cameraSource ?? elementSource,
    captureFrames: () => ({ track: { stop: () => void events.push('video track.stop') } as MediaStreamTrack, requestFrame: () => void log.push(['requestFrame']) }),
    createAudioMix: () => ({
      track: { stop: () => void events.push('audio track.stop') } as MediaStreamTrack,
      add: (stream) => void events.push(`audio.add ${stream.id}`),
      remove: (stream) => void events.push(`audio.remove ${stream.id}`),
      close: async () => void events.push('audio.close'),
    }),
    createRecorder: () => recorder,
    async upload(_id, seq) {
      const answer = options.upload?.(seq) ?? 'ok';
      if (answer === 'ok') {
        uploaded.push(seq);
        events.push(`uploaded ${seq}`);
      }
      return answer;
    },
    wait: async () => {},
    now: () => clock,
  };
  return {
    env,
    log,
    events,
    recorder,
    uploaded,
    canvases,
    advance: (ms: number) => void (clock += ms),
    tick: () => tick!(),
    intervalMs: () => intervalMs,
    drawn: () => log.filter((c) => c[0] === 'composite.drawImage'),
  };
}

describe('compositeLayout', () => {
  const inside = (box: Box, area: Box) => box.x >= area.x && box.y >= area.y && box.x + box.width <= area.x + area.width && box.y + box.height <= area.y + area.height;
  const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it('puts the band on top, the document on the left and every camera on the right, for one to five people', () => {
    for (let count = 0; count <= 5; count++) {
      const layout = compositeLayout(count);
      expect(layout.band).toEqual({ x: 0, y: 0, width: compositeWidth, height: compositeBandHeight });
      expect(layout.document).toEqual({ x: 0, y: compositeBandHeight, width: compositeWidth / 2, height: compositeHeight - compositeBandHeight });
      expect(layout.cameras).toHaveLength(count);
      const right = { x: compositeWidth / 2, y: compositeBandHeight, width: compositeWidth / 2, height: compositeHeight - compositeBandHeight };
      for (const [i, box] of layout.cameras.entries()) {
        expect(inside(box, right)).toBe(true);
        for (const other of layout.cameras.slice(i + 1)) expect(overlap(box, other)).toBe(false);
      }
    }
    // Two people: one above the other, each half the height; five: two columns, three rows.
    expect(compositeLayout(2).cameras.map((b) => [b.width, b.height])).toEqual([
      [640, 340],
      [640, 340],
    ]);
    expect(compositeLayout(5).cameras[4]).toMatchObject({ x: 640, width: 320, height: 680 / 3 });
  });

  it('fits a picture inside its box, centred, keeping its proportions', () => {
    // A portrait page in the document's half: as tall as the box allows.
    const page = fitInside(612 * 1.3, 792 * 1.3, compositeLayout(2).document, 8);
    expect(page.height).toBe(compositeHeight - compositeBandHeight - 16);
    expect(page.width / page.height).toBeCloseTo(612 / 792, 2);
    expect(Math.abs(page.x + page.width / 2 - 320)).toBeLessThanOrEqual(1);
    // A 16:9 camera in a 640×340 cell.
    expect(fitInside(1280, 720, { x: 640, y: 40, width: 640, height: 340 })).toEqual({ x: 665, y: 44, width: 590, height: 332 });
  });

  it('writes the clock as `2026-11-26 14:03:07 UTC`', () => {
    expect(utcClock(new Date('2026-11-26T14:03:07.987Z'))).toBe('2026-11-26 14:03:07 UTC');
  });
});

describe('startCompositeRecording', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    vi.setSystemTime(new Date('2026-11-26T14:03:07.100Z'));
    documentViewSource.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    documentViewSource.clear();
  });

  it('draws what changed on each tick of its ticker — the cameras every frame, the shared page and its fields four times a second, the clock once a second — and pushes one frame per tick', () => {
    const h = harness();
    const cameras = [video(1280, 720), video(640, 480)];
    const page = fakeCanvas(795, 1029, 'page', h.log);
    documentViewSource.register(page);
    const overlay = vi.fn();
    documentViewSource.addOverlay(overlay);
    const handle = startCompositeRecording('rec-1', { reference: 'NO-7K3D', videos: cameras, audio: [] }, h.env);
    // The worker's ticker at the drawing rate, which is above the promised minimum.
    expect(h.intervalMs()).toBeCloseTo(1000 / compositeFramesPerSecond);
    expect(compositeFramesPerSecond).toBeGreaterThan(minimumFramesPerSecond);
    // The first frame: everything — background, the two cameras, the page, the band with the clock.
    expect(h.drawn().map((c) => c[1])).toEqual([h.canvases[1], cameras[0], cameras[1], page, h.canvases[3]]);
    expect(h.log.filter((c) => c[0] === 'band.fillText').map((c) => c[1])).toEqual(['NO-7K3D', '2026-11-26 14:03:07 UTC']);
    // The fields are drawn over the page, in the page's box.
    const pageBox = h.drawn()[3]!.slice(2);
    expect(overlay).toHaveBeenCalledTimes(1);
    expect(overlay.mock.lastCall![1]).toEqual({ x: pageBox[0], y: pageBox[1], width: pageBox[2], height: pageBox[3] });
    h.log.length = 0;

    // Then the cameras on every tick, the page every fourth, drawImage only; one frame pushed per tick.
    const perTick: unknown[][] = [];
    for (let i = 1; i <= 8; i++) {
      h.log.length = 0;
      h.tick();
      perTick.push(h.drawn().map((c) => c[1]));
      expect(h.log.filter((c) => c[0] === 'requestFrame')).toHaveLength(1);
      expect(h.log.some((c) => c[0] === 'composite.fillText')).toBe(false);
    }
    expect(perTick).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((frame) => (frame % 4 === 0 ? [cameras[0], cameras[1], page] : [cameras[0], cameras[1]])));
    expect(overlay).toHaveBeenCalledTimes(3);
    // The clock: rendered again, and drawn, when its second changes.
    expect(h.log.some((c) => c[0] === 'band.fillText')).toBe(false);
    vi.setSystemTime(new Date('2026-11-26T14:03:08.050Z'));
    h.log.length = 0;
    h.tick();
    expect(h.log.filter((c) => c[0] === 'band.fillText').map((c) => c[1])).toEqual(['NO-7K3D', '2026-11-26 14:03:08 UTC']);
    expect(h.drawn().map((c) => c[1])).toEqual([cameras[0], cameras[1], h.canvases[3]]);
    h.advance(1000);
    expect(handle.framesPerSecond()).toBe(10);
  });

  it('shows "No document on screen" until a page is registered, and cameras as they come and go', () => {
    const h = harness();
    const first = video(640, 480);
    const handle = startCompositeRecording('rec-1', { reference: 'NO-1', videos: [first], audio: [] }, h.env);
    expect(h.drawn().map((c) => c[1])).toEqual([h.canvases[1], first, h.canvases[2], h.canvases[3]]);
    // A camera not playing yet is left out; three people: the grid changes (two columns).
    const joining = { readyState: 0, videoWidth: 0, videoHeight: 0 } as HTMLVideoElement;
    const third = video(1280, 720);
    h.log.length = 0;
    handle.setVideos([first, joining, third]);
    h.tick();
    const drawnNow = h.drawn();
    // A new layout: everything again, from the background.
    expect(drawnNow.map((c) => c[1])).toEqual([h.canvases[1], first, third, h.canvases[2], h.canvases[3]]);
    // The third person: second row, first column (a 320×340 cell from y = 380), centred.
    expect(drawnNow[2]!.slice(2)).toEqual([644, 462, 312, 176]);
    // The background was repainted for three cells.
    expect(h.log.filter((c) => c[0] === 'background.fillRect')).toHaveLength(1 + 3);
    // The second person's camera starts playing: its picture appears, the cells are cleared first.
    Object.assign(joining, { readyState: 4, videoWidth: 640, videoHeight: 360 });
    h.log.length = 0;
    h.tick();
    expect(h.drawn().map((c) => c[1])).toEqual([h.canvases[1], first, joining, third, h.canvases[2], h.canvases[3]]);
    h.log.length = 0;
    h.tick();
    expect(h.drawn().map((c) => c[1])).toEqual([first, joining, third]);
  });

  it("draws each camera's newest picture from its source, leaves a cell empty when its camera ended, and lets go of cameras it no longer shows", () => {
    // Sources as camera-frames.ts makes them (its own tests cover reading the frames).
    const pictures = new Map<HTMLVideoElement, CameraPicture | null>();
    const closed: HTMLVideoElement[] = [];
    const h = harness({ cameraSource: (video) => ({ picture: () => pictures.get(video) ?? null, close: () => void closed.push(video) }) });
    const [signer, notary, witness] = [video(0, 0), video(0, 0), video(0, 0)];
    const frames = { signer: { displayWidth: 640 } as VideoFrame, notary: { displayWidth: 1280 } as VideoFrame };
    pictures.set(signer, { image: frames.signer, width: 640, height: 480 });
    pictures.set(notary, { image: frames.notary, width: 1280, height: 720 });
    const handle = startCompositeRecording('rec-1', { reference: 'NO-1', videos: [signer, notary], audio: [] }, h.env);
    // The frames are drawn, in the proportions of the frame (not of the element).
    expect(h.drawn().slice(1, 3).map((c) => c.slice(1))).toEqual([
      [frames.signer, 739, 44, 443, 332],
      [frames.notary, 665, 384, 590, 332],
    ]);
    // The signer's camera ended: their cell is cleared (the background again) and left empty.
    pictures.set(signer, null);
    h.log.length = 0;
    h.tick();
    expect(h.drawn().map((c) => c[1])).toEqual([h.canvases[1], frames.notary, h.canvases[2], h.canvases[3]]);
    // A camera taken off the list is let go; the others when the recording stops.
    handle.setVideos([notary, witness]);
    expect(closed).toEqual([signer]);
    void handle.stop();
    return vi.runAllTimersAsync().then(() => expect(closed).toEqual([signer, notary, witness]));
  });

  it('tags each named camera with whose it is, in its corner, the tag rendered once per name and drawn each frame', () => {
    const h = harness();
    const named = (width: number, height: number, name: string) => ({ ...video(width, height), dataset: { recordingName: name } }) as unknown as HTMLVideoElement;
    const cameras = [named(640, 480, 'Grace Hopper'), named(640, 480, 'Nia Notary (notary)'), video(640, 480)];
    startCompositeRecording('rec-1', { reference: 'NO-7K3D', videos: cameras, audio: [] }, h.env);
    const tags = () => h.drawn().filter((c) => (c[1] as { name?: string }).name === 'extra');
    // Each named camera, then its tag inside the camera's box (bottom-left); the unnamed one has none.
    const drawn = h.drawn().map((c) => c[1]);
    expect(drawn.indexOf(cameras[0])).toBe(drawn.indexOf(tags()[0]![1]) - 1);
    expect(tags()).toHaveLength(2);
    const [cam, tag] = [h.drawn().find((c) => c[1] === cameras[0])!, tags()[0]!];
    expect(tag[2]).toBeGreaterThanOrEqual(cam[2] as number);
    expect((tag[3] as number) + (tag[5] as number)).toBeLessThanOrEqual((cam[3] as number) + (cam[5] as number));
    expect(h.log.filter((c) => c[0] === 'extra.fillText').map((c) => c[1])).toEqual(['Grace Hopper', 'Nia Notary (notary)']);
    h.log.length = 0;
    h.tick();
    expect(tags()).toHaveLength(2);
    expect(h.log.some((c) => c[0] === 'extra.fillText')).toBe(false);
  });

  it('mixes every voice, adds and removes streams', () => {
    const h = harness();
    const a = { id: 'a' } as MediaStream;
    const b = { id: 'b' } as MediaStream;
    const handle = startCompositeRecording('rec-1', { reference: 'NO-1', videos: [], audio: [a] }, h.env);
    handle.addAudio(b);
    handle.removeAudio(a);
    expect(h.events).toEqual(['audio.add a', 'audio.add b', 'audio.remove a']);
  });

  it('stops in order: the last frame, the recorder, its last chunk, then the tracks, and answers once every chunk is uploaded', async () => {
    const h = harness();
    const handle = startCompositeRecording('rec-1', { reference: 'NO-1', videos: [video(640, 480)], audio: [] }, h.env);
    h.recorder.emit(100);
    h.recorder.emit(100);
    h.log.length = 0;
    const stopped = handle.stop();
    expect(h.log.filter((c) => c[0] === 'requestFrame')).toHaveLength(1);
    // A tick that arrives while stopping draws nothing more.
    h.tick();
    expect(h.log.filter((c) => c[0] === 'requestFrame')).toHaveLength(1);
    await vi.runAllTimersAsync();
    expect(await stopped).toBe(3);
    const order = h.events.filter((e) => !e.startsWith('uploaded'));
    expect(order.slice(order.indexOf('recorder.stop'))).toEqual(['recorder.stop', 'dataavailable', 'stop event', 'ticker.stop', 'video track.stop', 'audio track.stop', 'audio.close']);
    expect(h.events.indexOf('uploaded 2')).toBeGreaterThan(h.events.lastIndexOf('dataavailable'));
    expect(h.uploaded).toEqual([0, 1, 2]);
    // Stop twice: the same answer, not a second stop.
    expect(await handle.stop()).toBe(3);
    expect(h.events.filter((e) => e === 'recorder.stop')).toHaveLength(1);
  });

  it('warns at once when an upload fails, clears the warning when it goes through, and says so when the server refuses', async () => {
    const answers: Record<number, UploadAnswer[]> = { 0: ['retry', 'retry', 'ok'], 1: ['refused'] };
    const h = harness({ upload: (seq) => answers[seq]?.shift() ?? 'ok' });
    const handle = startCompositeRecording('rec-1', { reference: 'NO-1', videos: [], audio: [] }, h.env);
    const problems: (string | null)[] = [];
    handle.onProblem((p) => problems.push(p));
    h.recorder.emit(100);
    await vi.runAllTimersAsync();
    expect(problems).toEqual(['uploadFailing', null]);
    h.recorder.emit(100);
    await vi.runAllTimersAsync();
    expect(problems).toEqual(['uploadFailing', null, 'uploadRefused']);
    expect(recordingMessages[problems[2] as 'uploadRefused']).toBe(recordingMessages.uploadRefused);
    const stopped = handle.stop().catch((error: Error) => error);
    await vi.runAllTimersAsync();
    expect(((await stopped) as Error).message).toBe(recordingMessages.uploadRefused);
  });

  it('warns when the recorder stops producing chunks, from the ticker, and clears it when chunks come again', () => {
    const h = harness();
    const handle = startCompositeRecording('rec-1', { reference: 'NO-1', videos: [], audio: [] }, h.env);
    const problems: (string | null)[] = [];
    handle.onProblem((p) => problems.push(p));
    h.advance(recordingTimesliceMs * 3);
    h.tick();
    expect(problems).toEqual([]);
    h.advance(100);
    h.tick();
    expect(problems).toEqual(['recorderStalled']);
    h.recorder.emit(100);
    expect(problems).toEqual(['recorderStalled', null]);
    h.recorder.onerror?.(new Event('error'));
    expect(problems).toEqual(['recorderStalled', null, 'recorderStalled']);
  });
});
