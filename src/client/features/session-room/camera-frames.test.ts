import { describe, expect, it, vi } from 'vitest';
import { cameraSourceFactory, elementSource, trackFrameSource, type TrackProcessorConstructor } from './camera-frames.ts';

/**
 * The recording's camera sources with fakes for the browser (a camera track,
 * MediaStreamTrackProcessor's stream of VideoFrames, the `<video>` element):
 * the newest frame is drawn, every other one closed, an ended or replaced
 * track let go, and the `<video>` element where the browser has no processor.
 */

type FakeFrame = VideoFrame & { name: string; close: ReturnType<typeof vi.fn> };
const frame = (name: string, width = 640, height = 480) => ({ name, displayWidth: width, displayHeight: height, close: vi.fn() }) as unknown as FakeFrame;

function fakeTrack(name: string) {
  const copies: { stop: ReturnType<typeof vi.fn>; readyState: string; name: string }[] = [];
  const track = {
    name,
    readyState: 'live' as MediaStreamTrackState,
    clone() {
      const copy = { name: `${name} copy`, readyState: 'live', stop: vi.fn() };
      copies.push(copy);
      return copy as unknown as MediaStreamTrack;
    },
  };
  return { track: track as unknown as MediaStreamTrack & { readyState: MediaStreamTrackState }, copies };
}

/** A processor whose frames the test sends; one stream per track it is given. */
function fakeProcessor() {
  const streams: { track: MediaStreamTrack; send(frame: VideoFrame): void; end(): void; cancelled: boolean }[] = [];
  const Processor = class {
    readable: ReadableStream<VideoFrame>;
    constructor({ track }: { track: MediaStreamTrack }) {
      let controller!: ReadableStreamDefaultController<VideoFrame>;
      const entry = { track, send: (f: VideoFrame) => controller.enqueue(f), end: () => controller.close(), cancelled: false };
      this.readable = new ReadableStream<VideoFrame>({
        start: (c) => void (controller = c),
        cancel: () => void (entry.cancelled = true),
      });
      streams.push(entry);
    }
  } as unknown as TrackProcessorConstructor;
  return { Processor, streams };
}

const showing = (track: MediaStreamTrack | null) => ({ srcObject: track ? { getVideoTracks: () => [track] } : null }) as unknown as HTMLVideoElement;
/** Lets the source's read loop take what was sent. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A source reading a camera's track, one frame taken and drawn. */
async function drawingOneFrame() {
  const { Processor, streams } = fakeProcessor();
  const camera = fakeTrack('camera');
  const video = showing(camera.track);
  const source = trackFrameSource(video, Processor);
  source.picture();
  const shown = frame('shown');
  streams[0]!.send(shown);
  await settle();
  expect(source.picture()?.image).toBe(shown);
  return { source, streams, camera, video, shown };
}

describe('trackFrameSource', () => {
  it('draws the newest frame of the camera and closes every older one at once', async () => {
    const { Processor, streams } = fakeProcessor();
    const camera = fakeTrack('camera');
    const source = trackFrameSource(showing(camera.track), Processor);
    // Nothing yet: the tile stays empty; the processor reads a clone of the element's track.
    expect(source.picture()).toBeNull();
    expect(streams.map((s) => (s.track as unknown as { name: string }).name)).toEqual(['camera copy']);
    const [a, b, c] = [frame('a'), frame('b'), frame('c', 1280, 720)];
    streams[0]!.send(a);
    streams[0]!.send(b);
    streams[0]!.send(c);
    await settle();
    expect(source.picture()).toEqual({ image: c, width: 1280, height: 720 });
    expect([a.close, b.close, c.close].map((close) => close.mock.calls.length)).toEqual([1, 1, 0]);
    // Drawn again until a newer one comes; one reader for the track, not one per picture.
    expect(source.picture()?.image).toBe(c);
    expect(streams).toHaveLength(1);
  });

  it('draws nothing once the track has ended, and lets the camera go', async () => {
    // The stream ends (the other side left): its last frame is not kept on the recording.
    const left = await drawingOneFrame();
    left.streams[0]!.end();
    await settle();
    expect(left.source.picture()).toBeNull();
    expect(left.shown.close).toHaveBeenCalledTimes(1);

    // The element's own track ends (the camera was turned off for good): the clone is stopped too.
    const off = await drawingOneFrame();
    off.camera.track.readyState = 'ended';
    expect(off.source.picture()).toBeNull();
    expect(off.shown.close).toHaveBeenCalledTimes(1);
    expect(off.camera.copies[0]!.stop).toHaveBeenCalled();
    expect(off.streams[0]!.cancelled).toBe(true);
  });

  it('follows the element to a new track (a reconnected peer): the old reading is let go, the new one drawn', async () => {
    const { source, streams, camera, video, shown } = await drawingOneFrame();
    Object.assign(video, showing(fakeTrack('next').track));
    expect(source.picture()).toBeNull();
    expect(shown.close).toHaveBeenCalledTimes(1);
    expect(camera.copies[0]!.stop).toHaveBeenCalled();
    expect(streams[0]!.cancelled).toBe(true);
    const fresh = frame('fresh');
    streams[1]!.send(fresh);
    await settle();
    expect(source.picture()?.image).toBe(fresh);
    // No stream on the element: nothing drawn, nothing read.
    Object.assign(video, showing(null));
    expect(source.picture()).toBeNull();
    expect(fresh.close).toHaveBeenCalledTimes(1);
  });

  it('closes its frame, cancels its reader and stops its clone when closed', async () => {
    const { source, streams, camera, shown } = await drawingOneFrame();
    source.close();
    expect(shown.close).toHaveBeenCalledTimes(1);
    expect(camera.copies[0]!.stop).toHaveBeenCalled();
    expect(streams[0]!.cancelled).toBe(true);
  });
});

describe('cameraSourceFactory', () => {
  const video = { readyState: 4, videoWidth: 640, videoHeight: 360, srcObject: null } as unknown as HTMLVideoElement;

  it('reads the track where the browser has MediaStreamTrackProcessor', () => {
    const { Processor, streams } = fakeProcessor();
    const camera = fakeTrack('camera');
    cameraSourceFactory({ MediaStreamTrackProcessor: Processor })(showing(camera.track)).picture();
    expect(streams).toHaveLength(1);
  });

  it('draws the <video> element itself where it has not, once it plays', () => {
    const source = cameraSourceFactory({})(video);
    expect(source.picture()).toEqual({ image: video, width: 640, height: 360 });
    expect(elementSource({ readyState: 1, videoWidth: 0, videoHeight: 0 } as HTMLVideoElement).picture()).toBeNull();
  });
});
