/**
 * The session room, for both participants (docs/decisions/030-session-room.md).
 * The customer arrives from /booking/:token/session, the notary from
 * /admin/appointments/:bookingId/session; both pass a device check first.
 *
 * Seams for features built on the room (identity proofing, signing and sealing):
 * - Side-panel tabs: add an entry to `roomTabs` (tabs.tsx). Each tab gets
 *   RoomTabProps: the session view, the viewer's role ('customer' | 'notary'),
 *   the access, and `channel` to send/receive room events; useRoom() gives the rest.
 * - Live updates: any server service calls `notifySessionChanged(deps, bookingId)`
 *   (server/features/session/notifier-service.ts); both pages then refetch `session.get`.
 * - The view: add fields to `SessionView` (shared/session.ts) and fill them in
 *   the server's `getSessionView`.
 * - Start / finish: the server's `startChecks` / `finishChecks`; a refusal's
 *   message is shown to the notary as it is.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { Camera, CameraOff, Circle, Mic, MicOff, PhoneOff, Square } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { formatInZone } from '../../../shared/time.ts';
import {
  sessionMessages,
  sessionOutcomeLabels,
  sessionOutcomes,
  type SessionAccess,
  type SessionOutcome,
  type SessionRole,
  type SessionView,
} from '../../../shared/session.ts';
import { actStageLabels } from '../../../shared/act-stages.ts';
import { actLabels } from '../../../shared/notarial-act.ts';
import { useCaptions } from './captions.ts';
import { senderName } from './chat-tab.tsx';
import { RoomConnection, type ConnectionStatus, type PeerView } from './connection.ts';
import { DeviceSwitcher } from './device-switcher.tsx';
import { DeviceCheck, type DeviceChoice } from './device-check.tsx';
import { Lobby } from './lobby.tsx';
import { startCompositeRecording, type RecordingHandle, type RecordingProblem } from './recorder.ts';
import { documentViewSource } from './document-view-source.ts';
import { recordingMessages } from '../../../shared/recording.ts';
import { RoomContext, type RoomChannel, type RoomContextValue } from './room-context.ts';
import { roomTabs } from './tabs.tsx';
import { errorMessage } from '../../lib/errors.ts';

export function SessionRoom({ access, role, backHref, backLabel }: { access: SessionAccess; role: SessionRole; backHref: string; backLabel: string }) {
  const view = trpc.session.get.useQuery(access, { retry: false, refetchOnWindowFocus: false });
  const [choice, setChoice] = useState<DeviceChoice | null>(null);

  if (view.isLoading) return <p className="text-slate-700">Loading your session…</p>;
  if (view.error || !view.data) {
    return (
      <Notice>
        <p className="font-semibold">{view.error ? errorMessage(view.error, sessionMessages.notFound) : sessionMessages.notFound}</p>
        <BackLink href={backHref} label={backLabel} />
      </Notice>
    );
  }
  const session = view.data;
  // Notarize now: until a notary accepts, the customer's page is the lobby (decision 110).
  if (role === 'customer' && 'token' in access && session.kind === 'on_demand' && !session.open && session.bookingStatus === 'confirmed' && !session.finishedAt) {
    return <Lobby token={access.token} choice={choice} onChoice={setChoice} onAccepted={() => void view.refetch()} manageHref={backHref} />;
  }
  if (!session.open && !choice) {
    const when = session.startsAt ? formatInZone(session.startsAt, session.timeZone) : null;
    const notYet = session.bookingStatus === 'confirmed' && !session.finishedAt;
    return (
      <Notice>
        <p className="font-semibold">{notYet ? sessionMessages.notOpenYet : sessionMessages.closed}</p>
        {notYet && when && (
          <p className="mt-1">
            Your appointment: {when.dateTime} ({when.zone}).
          </p>
        )}
        <BackLink href={backHref} label={backLabel} />
      </Notice>
    );
  }
  if (!choice) {
    return (
      <div className="grid gap-4">
        <p className="text-slate-700">
          {role === 'notary' ? `Session with ${session.customerName}` : `Session with ${session.notaryName}`} · {session.reference}
        </p>
        <DeviceCheck joinLabel="Join session" onJoin={setChoice} />
      </div>
    );
  }
  return <Room access={access} role={role} session={session} choice={choice} backHref={backHref} backLabel={backLabel} />;
}

function Notice({ children }: { children: React.ReactNode }) {
  return (
    <div role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-6 text-amber-950">
      {children}
    </div>
  );
}

function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <p className="mt-3">
      <a href={href} className="font-semibold text-blue-700 underline">
        {label}
      </a>
    </p>
  );
}

const peerStatusLabels: Record<PeerView['status'], string> = { connecting: 'Connecting…', connected: 'Connected', reconnecting: sessionMessages.reconnecting };

/** A peer's name as the room knows it: the notary, the customer, or a co-signer or witness by their row. */
export function peerName(peer: Pick<PeerView, 'role' | 'participantId'>, session: SessionView): string {
  if (peer.role === 'notary') return session.notaryName;
  if (peer.role === 'customer') return session.customerName;
  return session.participants.find((p) => p.id === peer.participantId)?.name ?? 'Participant';
}

/** Everyone in the mesh: each one's video (the main one is above), name and connection state. */
function PeerTiles({ peers, main, session, videos }: { peers: PeerView[]; main: MediaStream | null; session: SessionView; videos: PeerVideos }) {
  if (peers.length === 0) return null;
  return (
    <ul aria-label="People in the session" className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="peer-tiles">
      {peers.map((peer) => {
        const name = peerName(peer, session);
        return (
          <li key={peer.id} className="overflow-hidden rounded-lg bg-slate-900" data-testid="peer-tile">
            {peer.stream && peer.stream !== main ? <PeerVideo stream={peer.stream} name={name} register={(video) => (video ? videos.set(peer.id, video) : videos.delete(peer.id))} /> : <div className="aspect-video" aria-hidden="true" />}
            <p className="flex justify-between gap-2 bg-slate-800 px-2 py-1 text-xs text-white">
              <span className="truncate">{name}</span>
              <span data-testid="peer-status">{peerStatusLabels[peer.status]}</span>
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** The tiles' video elements by peer id: the notary's recording draws each of them (decision 103). */
type PeerVideos = Map<string, HTMLVideoElement>;

function PeerVideo({ stream, name, register }: { stream: MediaStream; name: string; register: (video: HTMLVideoElement | null) => void }) {
  const ref = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  const attach = useCallback(
    (video: HTMLVideoElement | null) => {
      ref.current = video;
      register(video);
    },
    // The peer's id does not change for a tile (its key): registering once per element is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return <video ref={attach} autoPlay playsInline data-testid="peer-video" data-recording-name={name} aria-label={`Video of ${name}`} className="aspect-video w-full object-cover" />;
}

const statusText = (status: ConnectionStatus, other: string): string =>
  ({
    connecting: 'Connecting…',
    waiting: `Waiting for ${other} to join…`,
    connected: `Connected with ${other}.`,
    reconnecting: sessionMessages.reconnecting,
    left: 'You left the session.',
    closed: sessionMessages.closed,
  })[status];

function Room(props: { access: SessionAccess; role: SessionRole; session: SessionView; choice: DeviceChoice; backHref: string; backLabel: string }) {
  const { access, role, session, choice } = props;
  const utils = trpc.useUtils();
  const [connection, setConnection] = useState<RoomConnection | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const created = new RoomConnection(access, role, choice.stream);
    setConnection(created);
    const offUpdated = created.onUpdated(() => void utils.session.get.invalidate(access));
    return () => {
      offUpdated();
      created.close();
    };
    // A new generation after "Rejoin".
  }, [access, role, choice.stream, utils, generation]);

  useEffect(() => () => choice.stream.getTracks().forEach((track) => track.stop()), [choice.stream]);

  if (!connection) return <p className="text-slate-700">Connecting…</p>;
  return <RoomView key={generation} {...props} connection={connection} session={session} onRejoin={() => setGeneration((g) => g + 1)} />;
}

function RoomView(props: {
  access: SessionAccess;
  role: SessionRole;
  session: SessionView;
  choice: DeviceChoice;
  connection: RoomConnection;
  backHref: string;
  backLabel: string;
  onRejoin: () => void;
}) {
  const { access, role, session, choice, connection } = props;
  const state = useSyncExternalStore(connection.subscribe, connection.getState, connection.getState);
  const localRef = useRef<HTMLVideoElement>(null);
  const remoteRef = useRef<HTMLVideoElement>(null);
  const peerVideos = useRef<PeerVideos>(new Map());
  const [micOn, setMicOn] = useState(true);
  const [cameraOn, setCameraOn] = useState(true);
  const [tab, setTab] = useState(roomTabs[0]!.id);
  const [captionsOn, setCaptionsOn] = useState(true);
  const [documentFocus, setDocumentFocus] = useState<RoomContextValue['documentFocus']>(null);
  const other = role === 'notary' ? session.customerName : session.notaryName;

  useEffect(() => {
    if (localRef.current) localRef.current.srcObject = choice.stream;
  }, [choice.stream]);
  useEffect(() => {
    if (remoteRef.current && remoteRef.current.srcObject !== state.remoteStream) remoteRef.current.srcObject = state.remoteStream;
  }, [state.remoteStream]);

  const channel: RoomChannel = useMemo(() => ({ send: (type, payload) => connection.send(type, payload), on: (type, handler) => connection.on(type, handler) }), [connection]);

  useEffect(
    () =>
      connection.on('document:focus', (event) => {
        const documentId = String(event.payload.documentId ?? '');
        const page = Number(event.payload.page ?? 1);
        setTab('documents');
        setDocumentFocus({ documentId, page: Number.isInteger(page) && page > 0 ? page : 1, at: Date.now() });
      }),
    [connection],
  );

  const toggle = (kind: 'audio' | 'video') => {
    const next = kind === 'audio' ? !micOn : !cameraOn;
    choice.stream.getTracks().filter((track) => track.kind === kind).forEach((track) => (track.enabled = next));
    if (kind === 'audio') setMicOn(next);
    else setCameraOn(next);
  };

  const context: RoomContextValue = { session, role, access, channel, connection, messages: state.messages, documentFocus };
  const tabs = roomTabs.filter((t) => !t.roles || t.roles.includes(role));
  // Finished (the view the server announced) ends the room for both, whether or not the
  // socket's "closed" reached this browser: media stops, the connection closes (issue 26).
  const finished = session.finishedAt !== null;
  const ended = finished || state.status === 'closed' || state.status === 'left';
  useEffect(() => {
    if (!finished) return;
    connection.close();
    choice.stream.getTracks().forEach((track) => track.stop());
  }, [finished, connection, choice.stream]);
  const captions = useCaptions(state.messages, role);
  // Whose the main video is: the customer's (the notary's for the others), or whoever is there while they are not.
  const mainPeer = state.peers.find((p) => p.stream !== null && p.stream === state.remoteStream);
  const mainName = mainPeer ? peerName(mainPeer, session) : other;

  return (
    <RoomContext.Provider value={context}>
      <div className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-slate-700">
            {role === 'notary' ? `Session with ${session.customerName}` : `Session with ${session.notaryName}`} · {session.reference}
          </p>
          <p data-testid="act-stage" className="rounded-full bg-blue-50 px-3 py-1 text-sm font-semibold text-blue-900">
            Stage: {actStageLabels[session.stage]}
          </p>
          <p role="status" data-testid="connection-status" className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-900">
            {finished ? sessionMessages.closed : state.status === 'closed' && state.closedReason ? state.closedReason : statusText(state.status, other)}
          </p>
        </div>
        {session.recordingActive && (
          <p role="status" className="flex items-center gap-2 rounded-md bg-red-50 px-3 py-2 font-semibold text-red-800">
            <Circle className="h-3 w-3 fill-red-700 text-red-700" aria-hidden="true" />
            {sessionMessages.recordingNotice}
          </p>
        )}

        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <div className="grid content-start gap-3">
            <div className="relative overflow-hidden rounded-xl bg-slate-900">
              <video ref={remoteRef} autoPlay playsInline data-testid="remote-video" data-recording-name={mainName} aria-label={`Video of ${mainName}`} className="aspect-video w-full object-contain" />
              {captionsOn && captions.length > 0 && (
                <div data-testid="captions" aria-hidden="true" className="absolute inset-x-4 bottom-4 grid gap-1">
                  {captions.map(({ message, fading }) => (
                    <p
                      key={message.id}
                      data-fading={fading}
                      className={`justify-self-center rounded bg-black/80 px-3 py-1 text-center text-lg text-white transition-opacity duration-1000 motion-reduce:transition-none ${fading ? 'opacity-0' : 'opacity-100'}`}
                    >
                      {senderName(message, role, session)}: {message.body}
                    </p>
                  ))}
                </div>
              )}
              <video
                ref={localRef}
                autoPlay
                playsInline
                muted
                data-testid="local-video"
                data-recording-name={role === 'notary' ? `${session.notaryName} (notary)` : undefined}
                aria-label="Your video"
                className="absolute right-3 top-3 w-1/4 rounded-lg border-2 border-white bg-slate-800 object-cover" />
            </div>

            <PeerTiles peers={state.peers} main={state.remoteStream} session={session} videos={peerVideos.current} />

            <div role="toolbar" aria-label="Call controls" className="flex flex-wrap items-center gap-2">
              <Button type="button" variant="outline" aria-pressed={!micOn} onClick={() => toggle('audio')} disabled={ended}>
                {micOn ? <Mic className="h-4 w-4" aria-hidden="true" /> : <MicOff className="h-4 w-4" aria-hidden="true" />}
                {micOn ? 'Mute' : 'Unmute'}
              </Button>
              <Button type="button" variant="outline" aria-pressed={!cameraOn} onClick={() => toggle('video')} disabled={ended}>
                {cameraOn ? <Camera className="h-4 w-4" aria-hidden="true" /> : <CameraOff className="h-4 w-4" aria-hidden="true" />}
                {cameraOn ? 'Turn camera off' : 'Turn camera on'}
              </Button>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" checked={captionsOn} onChange={(e) => setCaptionsOn(e.target.checked)} className="h-4 w-4" />
                Show chat captions on the video
              </label>
              {!ended && <DeviceSwitcher stream={choice.stream} onReplaced={(stream) => connection.replaceLocalStream(stream)} disabled={ended} />}
              {state.status === 'left' ? (
                <Button type="button" onClick={props.onRejoin}>
                  Rejoin
                </Button>
              ) : (
                <Button type="button" variant="destructive" onClick={() => connection.leave()} disabled={ended}>
                  <PhoneOff className="h-4 w-4" aria-hidden="true" />
                  Leave
                </Button>
              )}
            </div>

            {role === 'notary' && !ended && <NotaryControls access={access} session={session} localRef={localRef} remoteRef={remoteRef} localStream={choice.stream} remoteStream={state.remoteStream} peers={state.peers} peerVideos={peerVideos.current} />}
            {ended && role === 'customer' && session.outcome === 'completed' ? (
              <BackLink href={props.backHref} label={actLabels.downloadNotarized} />
            ) : (
              ended && <BackLink href={props.backHref} label={props.backLabel} />
            )}
          </div>

          <Tabs.Root value={tab} onValueChange={setTab} className="rounded-xl border border-slate-200 bg-white p-3">
            <Tabs.List aria-label="Session panels" className="mb-3 flex flex-wrap gap-1 border-b border-slate-200">
              {tabs.map((t) => (
                <Tabs.Trigger
                  key={t.id}
                  value={t.id}
                  className="rounded-t-md px-3 py-2 text-sm font-semibold text-slate-700 data-[state=active]:border-b-2 data-[state=active]:border-blue-700 data-[state=active]:text-blue-800"
                >
                  {t.label}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            {tabs.map((t) => (
              // The documents tab stays mounted while hidden: its page and loaded PDF survive a look at another tab (issue 26).
              <Tabs.Content
                key={t.id}
                value={t.id}
                forceMount={t.id === 'documents' ? true : undefined}
                className="focus-visible:outline-2 focus-visible:outline-blue-700 data-[state=inactive]:hidden"
              >
                <t.Component session={session} role={role} access={access} channel={channel} />
              </Tabs.Content>
            ))}
          </Tabs.Root>
        </div>
      </div>
    </RoomContext.Provider>
  );
}

/** The notary's part: record, stop, finish with an outcome. */
function NotaryControls(props: {
  access: SessionAccess;
  session: SessionView;
  localRef: React.RefObject<HTMLVideoElement | null>;
  remoteRef: React.RefObject<HTMLVideoElement | null>;
  localStream: MediaStream;
  remoteStream: MediaStream | null;
  /** Everyone else in the mesh (decision 122): each one's camera and voice are on the recording too. */
  peers: PeerView[];
  peerVideos: PeerVideos;
}) {
  const { session } = props;
  const utils = trpc.useUtils();
  const start = trpc.session.start.useMutation();
  const stop = trpc.session.stopRecording.useMutation();
  const finish = trpc.session.finish.useMutation();
  const recorder = useRef<RecordingHandle | null>(null);
  const [recording, setRecording] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [problem, setProblem] = useState<RecordingProblem | null>(null);
  const [finishing, setFinishing] = useState(false);
  const [outcome, setOutcome] = useState<SessionOutcome>('completed');
  const ids = { reason: useId(), heading: useId() };
  const refresh = () => utils.session.get.invalidate(props.access);
  // Every camera on the picture: the main one (the customer), each other peer's tile, the notary's own last.
  const recordedVideos = () =>
    [props.remoteRef.current, ...props.peers.filter((p) => p.stream && p.stream !== props.remoteStream).map((p) => props.peerVideos.get(p.id) ?? null), props.localRef.current].filter(
      (v): v is HTMLVideoElement => v !== null,
    );
  const otherVoices = props.peers.flatMap((p) => (p.stream && p.stream !== props.remoteStream ? [p.stream] : []));

  const onStart = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const { recordingId } = await start.mutateAsync({ bookingId: session.bookingId });
      // The whole act on one picture: the signer's camera, the notary's, the page being shown (decision 103).
      const handle = startCompositeRecording(recordingId, {
        reference: session.reference,
        videos: recordedVideos(),
        audio: [props.localStream, props.remoteStream, ...otherVoices].filter((s): s is MediaStream => s !== null),
      });
      handle.onProblem(setProblem);
      recorder.current = handle;
      setProblem(null);
      setRecording(true);
      setMessage({ text: 'Recording started. The signer sees that the session is being recorded.', error: false });
    } catch (error) {
      setMessage({ text: error instanceof Error ? error.message : 'The recording could not be started.', error: true });
    } finally {
      setBusy(false);
    }
  };

  const onStop = async () => {
    const handle = recorder.current;
    if (!handle) return;
    setBusy(true);
    try {
      const chunkCount = await handle.stop();
      const result = await stop.mutateAsync({ recordingId: handle.recordingId, chunkCount });
      recorder.current = null;
      setRecording(false);
      setProblem(null);
      setMessage(result.missing.length ? { text: `Part of the recording did not arrive (${result.missing.length} pieces). Record again.`, error: true } : { text: 'Recording stopped.', error: false });
      await refresh();
    } catch (error) {
      setMessage({ text: error instanceof Error ? error.message : 'The recording could not be saved.', error: true });
    } finally {
      setBusy(false);
    }
  };

  // The other side reconnected: record their new stream's voice too (the old one's is let go).
  useEffect(() => {
    const stream = props.remoteStream;
    if (!stream) return;
    recorder.current?.addAudio(stream);
    return () => recorder.current?.removeAudio(stream);
  }, [props.remoteStream]);
  // Someone joins or leaves the mesh while recording: their tile comes onto the picture (or goes) and their voice into the mix.
  useEffect(() => {
    recorder.current?.setVideos(recordedVideos());
    for (const stream of otherVoices) recorder.current?.addAudio(stream);
    return () => {
      for (const stream of otherVoices) recorder.current?.removeAudio(stream);
    };
    // recordedVideos and otherVoices are derived from who is there with which stream (not from each status change).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.peers.map((p) => `${p.id}:${p.stream?.id ?? ''}`).join(' '), props.remoteStream]);
  // The room closes: the page it showed is not kept for the next one.
  useEffect(() => () => documentViewSource.clear(), []);

  const onFinish = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
    setBusy(true);
    try {
      await finish.mutateAsync({ bookingId: session.bookingId, outcome, reason: outcome === 'completed' ? undefined : reason });
      setMessage({ text: 'Session finished. The customer has been emailed.', error: false });
      setFinishing(false);
    } catch (error) {
      setMessage({ text: error instanceof Error ? error.message : 'The session could not be finished.', error: true });
    } finally {
      setBusy(false);
    }
  };

  const interrupted = session.recordingActive && !recording;
  return (
    <section aria-labelledby={ids.heading} className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4">
      <h2 id={ids.heading} className="text-lg font-semibold text-slate-900">
        Recording and outcome
      </h2>
      {interrupted && <p className="text-sm text-amber-900">A recording was interrupted. What arrived is kept; start recording again to continue.</p>}
      {recording && (problem || session.recordingStalled) && (
        <p role="alert" data-testid="recording-warning" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-semibold text-red-800">
          {problem ? recordingMessages[problem] : recordingMessages.serverStalled}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {recording ? (
          <Button type="button" variant="destructive" onClick={() => void onStop()} disabled={busy}>
            <Square className="h-4 w-4" aria-hidden="true" />
            Stop recording
          </Button>
        ) : (
          <Button type="button" onClick={() => void onStart()} disabled={busy}>
            <Circle className="h-4 w-4" aria-hidden="true" />
            Start recording
          </Button>
        )}
        <Button type="button" variant="outline" onClick={() => setFinishing((f) => !f)} aria-expanded={finishing} disabled={busy || recording}>
          Finish session
        </Button>
      </div>
      <p className="text-sm text-slate-700">
        Recordings: {session.recordings.filter((r) => r.status === 'stored').length} saved
      </p>
      {session.recordingSaving && (
        <p role="status" className="text-sm text-slate-800">
          {sessionMessages.savingRecording}
        </p>
      )}
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'text-sm text-red-700' : 'text-sm text-green-800'}>
          {message.text}
        </p>
      )}
      {finishing && (
        <form onSubmit={onFinish} className="grid gap-3">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold text-slate-900">Outcome</legend>
            {sessionOutcomes.map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="radio" name="outcome" value={value} checked={outcome === value} onChange={() => setOutcome(value)} className="h-4 w-4" />
                {sessionOutcomeLabels[value]}
              </label>
            ))}
          </fieldset>
          {outcome !== 'completed' && (
            <div>
              <Label htmlFor={ids.reason}>Reason (the customer reads it)</Label>
              <Textarea id={ids.reason} name="reason" required minLength={3} maxLength={1000} className="min-h-16" />
            </div>
          )}
          {outcome === 'completed' && session.finishBlockers.length > 0 && (
            <ul className="list-disc pl-5 text-sm text-amber-900">
              {session.finishBlockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          )}
          <Button type="submit" disabled={busy} className="justify-self-start">
            Finish and email the customer
          </Button>
        </form>
      )}
    </section>
  );
}
