import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import type { SessionChatMessage, SessionRole, SessionView } from '../../../shared/session.ts';
import { useRoom, type RoomTabProps } from './room-context.ts';

export function senderName(message: SessionChatMessage, viewer: SessionRole, session: SessionView): string {
  if (message.sender === 'participant') {
    if (viewer === 'participant' && message.participantId === session.participantId) return 'You';
    return session.participants.find((p) => p.id === message.participantId)?.name ?? 'Participant';
  }
  if (message.sender === viewer) return 'You';
  return message.sender === 'notary' ? session.notaryName : session.customerName;
}

/** Typed chat: spellings, numbers, and everything for a participant who cannot hear. */
export function ChatTab({ session, role }: RoomTabProps) {
  const { connection, messages } = useRoom();
  const ids = { input: useId(), error: useId() };
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const logRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    logRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [messages.length]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = draft.trim();
    if (!body) return setError('Type a message first.');
    setSending(true);
    const failure = await connection.sendChat(body);
    setSending(false);
    setError(failure);
    if (!failure) setDraft('');
  };

  return (
    <div className="grid gap-3">
      <div role="log" aria-label="Chat messages" aria-live="polite" className="max-h-80 min-h-32 overflow-y-auto rounded-md border border-slate-200 bg-slate-50 p-3">
        {messages.length === 0 && <p className="text-sm text-slate-700">No messages yet. Use the chat for anything that must be typed, such as spellings and numbers.</p>}
        <ol ref={logRef} className="grid content-start gap-2">
        {messages.map((message) => (
          <li key={message.id} className="text-sm">
            <span className="font-semibold text-slate-900">{senderName(message, role, session)}:</span> <span className="whitespace-pre-wrap break-words text-slate-800">{message.body}</span>
          </li>
        ))}
        </ol>
      </div>
      <form onSubmit={submit} className="grid gap-2">
        <Label htmlFor={ids.input}>Type a message</Label>
        <Textarea
          id={ids.input}
          value={draft}
          maxLength={2000}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            // Enter sends, Shift+Enter starts a new line.
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
          className="min-h-16"
        />
        {error && (
          <p id={ids.error} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <Button type="submit" size="sm" disabled={sending} className="justify-self-end">
          Send
        </Button>
      </form>
    </div>
  );
}
