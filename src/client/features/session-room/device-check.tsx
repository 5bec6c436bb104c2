import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';

/**
 * Before joining: camera preview, camera and microphone pickers, a level meter,
 * and a plain explanation (with what to do) when the browser refuses access
 * or finds no device.
 */

export interface DeviceChoice {
  stream: MediaStream;
  cameraId: string | null;
  microphoneId: string | null;
}

type Problem = { title: string; help: string } | null;

export function describeMediaError(error: unknown): { title: string; help: string } {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return {
      title: 'Camera and microphone access was refused.',
      help: 'Allow access to continue: click the camera icon in the address bar (or your browser’s site settings), choose Allow for camera and microphone, then press Try again.',
    };
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return {
      title: 'No camera or microphone was found.',
      help: 'Connect a camera and microphone (or use a phone or laptop that has them), then press Try again. A notarization needs you to be seen and heard.',
    };
  }
  if (name === 'NotReadableError' || name === 'AbortError') {
    return {
      title: 'Your camera or microphone is in use by another program.',
      help: 'Close other apps or tabs that use the camera (video calls, camera apps), then press Try again.',
    };
  }
  return {
    title: 'Your camera and microphone could not be started.',
    help: 'Use a recent version of Chrome, Edge, Firefox or Safari, check that your camera and microphone work, then press Try again.',
  };
}

export function DeviceCheck({ joinLabel, onJoin }: { joinLabel: string; onJoin: (choice: DeviceChoice) => void }) {
  const ids = { camera: useId(), microphone: useId(), meter: useId(), heading: useId() };
  const videoRef = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [microphones, setMicrophones] = useState<MediaDeviceInfo[]>([]);
  const [cameraId, setCameraId] = useState<string | null>(null);
  const [microphoneId, setMicrophoneId] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem>(null);
  const [level, setLevel] = useState(0);
  const [starting, setStarting] = useState(true);
  const handedOver = useRef(false);

  const start = useCallback(async (camera: string | null, microphone: string | null) => {
    setStarting(true);
    setProblem(null);
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('No media devices', 'NotSupportedError');
      const next = await navigator.mediaDevices.getUserMedia({
        video: camera ? { deviceId: { exact: camera } } : true,
        audio: microphone ? { deviceId: { exact: microphone } } : true,
      });
      setStream((previous) => {
        previous?.getTracks().forEach((track) => track.stop());
        return next;
      });
      const devices = await navigator.mediaDevices.enumerateDevices();
      setCameras(devices.filter((d) => d.kind === 'videoinput'));
      setMicrophones(devices.filter((d) => d.kind === 'audioinput'));
      setCameraId(next.getVideoTracks()[0]?.getSettings().deviceId ?? null);
      setMicrophoneId(next.getAudioTracks()[0]?.getSettings().deviceId ?? null);
    } catch (error) {
      setProblem(describeMediaError(error));
    } finally {
      setStarting(false);
    }
  }, []);

  useEffect(() => {
    void start(null, null);
  }, [start]);

  // Stop the preview when leaving the page, unless the stream went on into the room.
  useEffect(() => () => {
    if (!handedOver.current) stream?.getTracks().forEach((track) => track.stop());
  }, [stream]);

  useEffect(() => {
    if (videoRef.current) videoRef.current.srcObject = stream;
  }, [stream]);

  // The level meter: the microphone's loudness, about 10 times a second.
  useEffect(() => {
    if (!stream || stream.getAudioTracks().length === 0) return;
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 512;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const timer = setInterval(() => {
      analyser.getByteTimeDomainData(samples);
      let peak = 0;
      for (const sample of samples) peak = Math.max(peak, Math.abs(sample - 128));
      setLevel(Math.min(100, Math.round((peak / 128) * 100 * 2)));
    }, 100);
    return () => {
      clearInterval(timer);
      void audio.close();
    };
  }, [stream]);

  return (
    <section aria-labelledby={ids.heading} className="grid gap-6 rounded-xl border border-slate-200 bg-white p-6 md:grid-cols-2">
      <div>
        <h2 id={ids.heading} className="mb-3 text-xl font-semibold text-slate-900">
          Check your camera and microphone
        </h2>
        <video ref={videoRef} autoPlay playsInline muted aria-label="Your camera preview" className="aspect-video w-full rounded-lg bg-slate-900 object-cover" />
      </div>
      <div className="grid content-start gap-4">
        {problem && (
          <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
            <p className="font-semibold">{problem.title}</p>
            <p className="mt-1">{problem.help}</p>
          </div>
        )}
        <div>
          <Label htmlFor={ids.camera}>Camera</Label>
          <Select
            id={ids.camera}
            value={cameraId ?? ''}
            disabled={cameras.length === 0}
            onChange={(event) => {
              setCameraId(event.target.value);
              void start(event.target.value, microphoneId);
            }}
          >
            {cameras.length === 0 && <option value="">No camera found</option>}
            {cameras.map((device, index) => (
              <option key={device.deviceId || index} value={device.deviceId}>
                {device.label || `Camera ${index + 1}`}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor={ids.microphone}>Microphone</Label>
          <Select
            id={ids.microphone}
            value={microphoneId ?? ''}
            disabled={microphones.length === 0}
            onChange={(event) => {
              setMicrophoneId(event.target.value);
              void start(cameraId, event.target.value);
            }}
          >
            {microphones.length === 0 && <option value="">No microphone found</option>}
            {microphones.map((device, index) => (
              <option key={device.deviceId || index} value={device.deviceId}>
                {device.label || `Microphone ${index + 1}`}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <p id={ids.meter} className="text-sm font-medium text-slate-800">
            Microphone level (speak to test)
          </p>
          <div role="meter" aria-labelledby={ids.meter} aria-valuemin={0} aria-valuemax={100} aria-valuenow={level} className="mt-1 h-3 w-full overflow-hidden rounded-full bg-slate-200">
            <div className="h-full bg-green-600 transition-[width] duration-100" style={{ width: `${level}%` }} />
          </div>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button
            type="button"
            disabled={!stream || starting}
            onClick={() => {
              if (!stream) return;
              handedOver.current = true;
              onJoin({ stream, cameraId, microphoneId });
            }}
          >
            {joinLabel}
          </Button>
          {problem && (
            <Button type="button" variant="outline" onClick={() => void start(null, null)}>
              Try again
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
