import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { io } from 'socket.io-client';
import { z } from 'zod';
import { chatMessageBody, chatMessageMaxLength, chatNamespaces } from '../../../shared/chat.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { FieldError, Label } from '../../components/ui/label.tsx';
import { cn } from '../../lib/cn.ts';
import { Composer } from './composer.tsx';
import { MessageLog } from './message-log.tsx';
import { useStore } from './use-store.ts';
import { VisitorChat, type VisitorChatState } from './visitor-chat.ts';

/**
 * The visitor's chat panel (loaded only when the launcher is first opened).
 * A non-modal dialog: the visitor can keep reading the page while it is open.
 * The connection stays up when the panel is closed, so replies still arrive
 * and show as a count on the launcher.
 */
export default function ChatWidget({
  open,
  onOpenChange,
  page,
  onUnreadChange,
  launcherRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  page: string;
  onUnreadChange: (unread: number) => void;
  launcherRef: RefObject<HTMLButtonElement | null>;
}) {
  const [chat, setChat] = useState<VisitorChat | null>(null);
  const pageRef = useRef(page);
  pageRef.current = page;

  useEffect(() => {
    // ?chat=visitor asks the handshake for the visitor cookie (see socket.ts).
    const created = new VisitorChat(io(chatNamespaces.visitor, { query: { chat: 'visitor' } }), pageRef.current);
    setChat(created);
    return () => created.close();
  }, []);
  useEffect(() => chat?.setPage(page), [chat, page]);
  useEffect(() => chat?.setVisible(open), [chat, open]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <Dialog.Portal>
        <Dialog.Content
          // Clicking the page does not close the chat; Escape and the close button do.
          onInteractOutside={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            launcherRef.current?.focus();
          }}
          className="fixed right-4 top-16 z-50 flex h-[min(34rem,calc(100dvh-5rem))] w-[min(24rem,calc(100vw-2rem))] md:bottom-24 md:top-auto md:h-[min(34rem,calc(100dvh-8rem))] flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl"
        >
          {chat ? <ChatPanel chat={chat} onUnreadChange={onUnreadChange} /> : <Header state={null} />}
        </Dialog.Content>
      </Dialog.Portal>
      {chat && !open && <UnreadReporter chat={chat} onUnreadChange={onUnreadChange} />}
    </Dialog.Root>
  );
}

function UnreadReporter({ chat, onUnreadChange }: { chat: VisitorChat; onUnreadChange: (unread: number) => void }) {
  const { unread } = useStore(chat.store);
  useEffect(() => onUnreadChange(unread), [unread, onUnreadChange]);
  return null;
}

function presenceText(state: VisitorChatState | null): { text: string; online: boolean } {
  if (!state || state.status === 'connecting' || state.staffOnline === null) return { text: 'Connecting…', online: false };
  if (state.status === 'reconnecting') return { text: 'Connection lost. Reconnecting…', online: false };
  if (state.status === 'refused') return { text: 'Chat is unavailable right now.', online: false };
  return state.staffOnline
    ? { text: 'We are online and usually reply within minutes.', online: true }
    : { text: "We're offline. Leave a message and we'll email you.", online: false };
}

function Header({ state }: { state: VisitorChatState | null }) {
  const presence = presenceText(state);
  return (
    <div className="flex items-start justify-between gap-3 bg-blue-800 px-4 py-3 text-white">
      <div>
        <Dialog.Title className="text-base font-semibold">Chat with NotaryOnline</Dialog.Title>
        <Dialog.Description className="mt-0.5 flex items-center gap-2 text-sm text-blue-50">
          <span aria-hidden="true" className={cn('inline-block h-2.5 w-2.5 shrink-0 rounded-full', presence.online ? 'bg-green-400' : 'bg-slate-300')} />
          {presence.text}
        </Dialog.Description>
      </div>
      <Dialog.Close asChild>
        <button type="button" aria-label="Close chat" className="rounded p-1 text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-white">
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
      </Dialog.Close>
    </div>
  );
}

function ChatPanel({ chat, onUnreadChange }: { chat: VisitorChat; onUnreadChange: (unread: number) => void }) {
  const state = useStore(chat.store);
  useEffect(() => onUnreadChange(0), [onUnreadChange]);
  const offline = state.staffOnline === false;
  return (
    <>
      <Header state={state} />
      <MessageLog
        className="flex-1"
        messages={state.thread.messages}
        outbox={state.thread.outbox}
        mine="visitor"
        labelOf={(m) => (m.sender === 'visitor' ? 'You' : (m.senderName ?? 'NotaryOnline'))}
        onRetry={(clientId) => chat.retry(clientId)}
        empty={<p className="mb-2 text-sm text-slate-700">Hi! Ask us anything about notarizing your documents online.</p>}
      />
      <p role="status" className="min-h-5 px-4 text-xs text-slate-700">
        {state.staffTyping ? 'A team member is typing…' : ''}
      </p>
      {state.error && state.status === 'refused' && (
        <p role="alert" className="px-4 pb-2 text-sm text-red-700">
          {state.error}
        </p>
      )}
      {offline ? (
        <OfflineForm chat={chat} />
      ) : (
        <Composer onSend={(body) => chat.send(body)} onTyping={(typing) => chat.setTyping(typing)} disabled={state.status === 'refused'} />
      )}
    </>
  );
}

const offlineSchema = z.object({ email: z.email('Please enter a valid email address.'), body: chatMessageBody });

function OfflineForm({ chat }: { chat: VisitorChat }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<{ email?: string; body?: string; form?: string }>({});
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = offlineSchema.safeParse({ email, body });
    if (!parsed.success) {
      const fields = z.flattenError(parsed.error).fieldErrors;
      setErrors({ email: fields.email?.[0], body: fields.body?.[0] });
      return;
    }
    setErrors({});
    setBusy(true);
    const ack = await chat.leaveMessage(parsed.data.email, parsed.data.body);
    setBusy(false);
    if (!ack.ok) return setErrors({ form: ack.error });
    setSentTo(parsed.data.email);
    setBody('');
  };

  if (sentTo) {
    return (
      <div className="border-t border-slate-200 p-4 text-sm text-slate-800" role="status">
        <p>Thanks! Your message was sent. We&apos;ll reply to {sentTo}.</p>
        <Button type="button" variant="link" size="inline" onClick={() => setSentTo(null)}>
          Send another message
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-2 border-t border-slate-200 p-3">
      <div>
        <Label htmlFor={`${id}-email`}>Your email</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${id}-email-error` : undefined}
          className="h-10 text-sm"
        />
        <FieldError id={`${id}-email-error`}>{errors.email}</FieldError>
      </div>
      <div>
        <Label htmlFor={`${id}-body`}>Message</Label>
        <Textarea
          id={`${id}-body`}
          value={body}
          rows={3}
          maxLength={chatMessageMaxLength}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? `${id}-body-error` : undefined}
          className="min-h-0 resize-none text-sm"
        />
        <FieldError id={`${id}-body-error`}>{errors.body}</FieldError>
      </div>
      {errors.form && (
        <p role="alert" className="text-sm text-red-700">
          {errors.form}
        </p>
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Sending…' : 'Leave a message'}
      </Button>
    </form>
  );
}
