/**
 * Records the session in the notary's browser (docs/decisions/031-session-recording.md):
 * both videos drawn side by side on a canvas, both voices mixed with WebAudio,
 * one MediaRecorder over the result, a chunk every 2 seconds uploaded as soon
 * as it exists (numbered; retried until the server has it), so a crash of
 * either browser loses at most a few seconds.
 */

const timesliceMs = 2000;
const width = 1280;
const height = 360;
const framesPerSecond = 15;

export interface RecorderSources {
  localVideo: HTMLVideoElement;
  remoteVideo: HTMLVideoElement;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
}

export interface RecordingHandle {
  recordingId: string;
  /** Stops, waits for every chunk to be uploaded; resolves with the number of chunks sent. */
  stop(): Promise<number>;
  /** Chunks sent so far (for the on-screen status). */
  sent(): number;
  /** Mixes another stream's voice in (the other side reconnected with a new stream). */
  addAudio(stream: MediaStream): void;
}

function pickMimeType(): string {
  const candidates = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'];
  return candidates.find((type) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(type)) ?? 'video/webm';
}

async function uploadChunk(recordingId: string, seq: number, blob: Blob): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`/api/session/recordings/${recordingId}/chunks/${seq}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: blob,
        credentials: 'same-origin',
      });
      if (res.ok) return;
      // Refusals (signed out, room closed, bad chunk) do not get better by retrying.
      if (res.status >= 400 && res.status < 500 && res.status !== 429) throw new Error(`chunk ${seq} refused (${res.status})`);
    } catch (error) {
      if (error instanceof Error && error.message.includes('refused')) throw error;
    }
    if (attempt >= 20) throw new Error(`chunk ${seq} could not be uploaded`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(8000, 500 * 2 ** attempt)));
  }
}

export function startCompositeRecording(recordingId: string, sources: RecorderSources): RecordingHandle {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  const draw = () => {
    context.fillStyle = '#0f172a';
    context.fillRect(0, 0, width, height);
    for (const [index, video] of [sources.remoteVideo, sources.localVideo].entries()) {
      if (video.readyState < 2 || !video.videoWidth) continue;
      // Fit each video into its half, keeping its proportions.
      const scale = Math.min(width / 2 / video.videoWidth, height / video.videoHeight);
      const w = video.videoWidth * scale;
      const h = video.videoHeight * scale;
      context.drawImage(video, index * (width / 2) + (width / 2 - w) / 2, (height - h) / 2, w, h);
    }
    context.fillStyle = '#ffffff';
    context.font = '16px sans-serif';
    context.fillText(new Date().toISOString(), 12, height - 12);
  };
  // A timer, not requestAnimationFrame: it keeps drawing when the tab is in the background.
  draw();
  const timer = setInterval(draw, 1000 / framesPerSecond);

  const audio = new AudioContext();
  const mix = audio.createMediaStreamDestination();
  const mixed = new Set<MediaStream>();
  const addAudio = (stream: MediaStream | null) => {
    if (!stream || mixed.has(stream) || stream.getAudioTracks().length === 0) return;
    mixed.add(stream);
    audio.createMediaStreamSource(stream).connect(mix);
  };
  addAudio(sources.localStream);
  addAudio(sources.remoteStream);
  const composite = new MediaStream([...canvas.captureStream(framesPerSecond).getVideoTracks(), ...mix.stream.getAudioTracks()]);
  const recorder = new MediaRecorder(composite, { mimeType: pickMimeType(), videoBitsPerSecond: 1_000_000 });

  let seq = 0;
  let uploads: Promise<void> = Promise.resolve();
  let failure: Error | null = null;
  recorder.ondataavailable = (event) => {
    if (!event.data.size) return;
    const number = seq++;
    // In order, one at a time: the server accepts any order, but this keeps the bandwidth steady.
    uploads = uploads.then(() => uploadChunk(recordingId, number, event.data)).catch((error: Error) => {
      failure = error;
    });
  };
  recorder.start(timesliceMs);

  return {
    recordingId,
    sent: () => seq,
    addAudio,
    async stop() {
      const stopped = new Promise<void>((resolve) => recorder.addEventListener('stop', () => resolve(), { once: true }));
      if (recorder.state !== 'inactive') recorder.stop();
      await stopped;
      clearInterval(timer);
      composite.getTracks().forEach((track) => track.stop());
      await audio.close();
      await uploads;
      if (failure) throw failure;
      return seq;
    },
  };
}
