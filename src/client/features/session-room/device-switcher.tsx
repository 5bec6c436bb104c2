import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { describeMediaError } from './device-check.tsx';

/**
 * Camera and microphone pickers in the room (issue 26's design review, issue
 * 29). A new device's track replaces the old one in the same local stream
 * (the preview and the recording keep their stream) and on every peer
 * connection without renegotiating. When a device is unplugged
 * (`devicechange`, its track ended) the first one left of that kind takes over.
 * Once the room has ended (`disabled`) nothing is opened again: the session's
 * end stops every track, and an ended track must not bring the camera back.
 */
export function DeviceSwitcher({ stream, onReplaced, disabled }: { stream: MediaStream; onReplaced: (stream: MediaStream) => void; disabled: boolean }) {
  const ids = { camera: useId(), microphone: useId(), error: useId() };
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [current, setCurrent] = useState(() => ({
    videoinput: stream.getVideoTracks()[0]?.getSettings().deviceId ?? '',
    audioinput: stream.getAudioTracks()[0]?.getSettings().deviceId ?? '',
  }));
  const [error, setError] = useState<string | null>(null);

  // Read by a swap in flight: the room ended (or this picker left) while the device was opening.
  const ended = useRef(disabled);
  ended.current = disabled;
  useEffect(
    () => () => {
      ended.current = true;
    },
    [],
  );

  const swap = useCallback(
    async (kind: 'videoinput' | 'audioinput', deviceId: string) => {
      const trackKind = kind === 'videoinput' ? 'video' : 'audio';
      if (ended.current) return;
      try {
        const fresh = await navigator.mediaDevices.getUserMedia(trackKind === 'video' ? { video: { deviceId: { exact: deviceId } } } : { audio: { deviceId: { exact: deviceId } } });
        if (ended.current) {
          fresh.getTracks().forEach((t) => t.stop());
          return;
        }
        const track = fresh.getTracks()[0]!;
        for (const old of stream.getTracks().filter((t) => t.kind === trackKind)) {
          track.enabled = old.enabled;
          stream.removeTrack(old);
          old.stop();
        }
        stream.addTrack(track);
        onReplaced(stream);
        setCurrent((c) => ({ ...c, [kind]: track.getSettings().deviceId ?? deviceId }));
        setError(null);
      } catch (caught) {
        setError(describeMediaError(caught).title);
      }
    },
    [stream, onReplaced],
  );

  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!media?.enumerateDevices) return;
    let cancelled = false;
    const refresh = async () => {
      const list = await media.enumerateDevices();
      if (cancelled) return;
      setDevices(list);
      // A device unplugged: its track has ended; the first one left of that kind takes over.
      for (const [kind, trackKind] of [['videoinput', 'video'], ['audioinput', 'audio']] as const) {
        const track = stream.getTracks().find((t) => t.kind === trackKind);
        const fallback = list.find((d) => d.kind === kind && d.deviceId);
        if (track?.readyState === 'ended' && fallback) await swap(kind, fallback.deviceId);
      }
    };
    void refresh();
    media.addEventListener('devicechange', refresh);
    return () => {
      cancelled = true;
      media.removeEventListener('devicechange', refresh);
    };
  }, [stream, swap]);

  const cameras = devices.filter((d) => d.kind === 'videoinput' && d.deviceId);
  const microphones = devices.filter((d) => d.kind === 'audioinput' && d.deviceId);
  if (cameras.length < 2 && microphones.length < 2) return null;
  return (
    <div className="flex flex-wrap items-end gap-3">
      {cameras.length > 1 && (
        <div className="grid gap-1">
          <Label htmlFor={ids.camera}>Camera</Label>
          <Select id={ids.camera} value={current.videoinput} disabled={disabled} onChange={(e) => void swap('videoinput', e.target.value)}>
            {cameras.map((d, i) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || `Camera ${i + 1}`}
              </option>
            ))}
          </Select>
        </div>
      )}
      {microphones.length > 1 && (
        <div className="grid gap-1">
          <Label htmlFor={ids.microphone}>Microphone</Label>
          <Select id={ids.microphone} value={current.audioinput} disabled={disabled} onChange={(e) => void swap('audioinput', e.target.value)}>
            {microphones.map((d, i) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || `Microphone ${i + 1}`}
              </option>
            ))}
          </Select>
        </div>
      )}
      {error && (
        <p id={ids.error} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
