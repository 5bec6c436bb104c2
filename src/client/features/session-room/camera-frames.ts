/**
 * The cameras the notary's recording draws (docs/decisions/130-camera-frames.md).
 *
 * Where the browser has `MediaStreamTrackProcessor` (Chromium), each camera's
 * frames are read from its track as `VideoFrame`s and the newest is drawn: the
 * recording does not depend on how the page shows the `<video>` element (its
 * size, whether it is painted, a background tab), and a frame is decoded
 * pixels, not the element's compositor picture. Only the newest frame of each
 * camera is kept; every other one is closed at once (an unclosed frame holds a
 * buffer of the camera's or the decoder's small pool, and the camera stalls).
 * Elsewhere the `<video>` element itself is drawn, as before.
 */

/** A camera's picture to draw now. */
export interface CameraPicture {
  image: CanvasImageSource;
  width: number;
  height: number;
}

/** One camera on the recording. */
export interface CameraSource {
  /** The newest picture, or null when there is nothing to draw (not playing yet, no camera, camera ended). */
  picture(): CameraPicture | null;
  /** Lets the camera go: its frame closed, its reader cancelled. */
  close(): void;
}

export type CameraSourceFactory = (video: HTMLVideoElement) => CameraSource;

/** `MediaStreamTrackProcessor` as Chromium offers it on window (not in TypeScript's DOM library). */
export type TrackProcessorConstructor = new (init: { track: MediaStreamTrack }) => { readable: ReadableStream<VideoFrame> };

/** The element's camera track, if it shows a MediaStream. */
function videoTrack(video: HTMLVideoElement): MediaStreamTrack | null {
  const stream = video.srcObject as Partial<MediaStream> | null;
  return stream?.getVideoTracks?.()[0] ?? null;
}

/** The `<video>` element itself, as every browser can draw it (the fallback). */
export function elementSource(video: HTMLVideoElement): CameraSource {
  return {
    picture: () => (video.readyState >= 2 && video.videoWidth && video.videoHeight ? { image: video, width: video.videoWidth, height: video.videoHeight } : null),
    close() {},
  };
}

/**
 * The frames of the camera track the element shows, read with a processor, the newest kept.
 * Follows the element: another track (a reconnected peer, another camera chosen) is read from
 * then on; an ended track draws nothing. Reads a clone, so letting go (cancelling the reader,
 * stopping the clone) never ends the track the room shows.
 */
export function trackFrameSource(video: HTMLVideoElement, Processor: TrackProcessorConstructor): CameraSource {
  let track: MediaStreamTrack | null = null;
  let reading: { copy: MediaStreamTrack; reader: ReadableStreamDefaultReader<VideoFrame> } | null = null;
  let latest: VideoFrame | null = null;

  const keep = (frame: VideoFrame | null) => {
    latest?.close();
    latest = frame;
  };
  const release = () => {
    if (reading) {
      reading.reader.cancel().catch(() => {});
      reading.copy.stop();
      reading = null;
    }
    keep(null);
  };
  const follow = (next: MediaStreamTrack) => {
    const copy = next.clone();
    const own = { copy, reader: new Processor({ track: copy }).readable.getReader() };
    reading = own;
    void (async () => {
      for (;;) {
        const { value, done } = await own.reader.read();
        if (reading !== own) return value?.close();
        // The track ended: its last frame is not the camera any more.
        keep(done ? null : value);
        if (done) return;
      }
    })().catch(() => {
      if (reading === own) keep(null);
    });
  };

  return {
    picture() {
      const current = videoTrack(video);
      if (current !== track || current?.readyState === 'ended') {
        release();
        track = current;
        if (current && current.readyState !== 'ended') follow(current);
      }
      return latest ? { image: latest, width: latest.displayWidth, height: latest.displayHeight } : null;
    },
    close() {
      release();
      track = null;
    },
  };
}

/** Frames from the track where the browser can (Chromium), the `<video>` element elsewhere. */
export function cameraSourceFactory(scope: { MediaStreamTrackProcessor?: TrackProcessorConstructor } = globalThis as never): CameraSourceFactory {
  const Processor = scope.MediaStreamTrackProcessor;
  return Processor ? (video) => trackFrameSource(video, Processor) : elementSource;
}
