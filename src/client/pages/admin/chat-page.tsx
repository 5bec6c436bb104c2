import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import type { ChatConversationSummary } from '../../../shared/chat.ts';
import { useConsoleChat } from '../../features/admin/console-chat.tsx';
import { UpcomingBookings } from '../../features/admin/upcoming-bookings.tsx';
import { Composer } from '../../features/chat/composer.tsx';
import { MessageLog } from '../../features/chat/message-log.tsx';
import type { StaffChat, StaffChatState } from '../../features/chat/staff-chat.ts';
import { emptyThread } from '../../features/chat/thread.ts';
import { useStore } from '../../features/chat/use-store.ts';
import { PageHeading } from '../../features/admin/page-heading.tsx';
import { cn } from '../../lib/cn.ts';

/**
 * /admin/chat (mounted inside the console's signed-in layout): visitors'
 * conversations with unread counts, the open conversation live, and the
 * upcoming bookings beside it. The `/staff` socket authenticates with the
 * session cookie on its handshake.
 */
export function Component() {
  // The console's one connection (opened by its layout), so presence and unread counts hold on every page.
  const chat = useConsoleChat();
  useEffect(() => () => chat?.leave(), [chat]);

  return (
    <>
      <PageHeading title="Chat" />
      {chat ? <ChatConsole chat={chat} /> : <p className="text-sm text-slate-700">Connecting…</p>}
    </>
  );
}

function visitorLabel(conversation: ChatConversationSummary): string {
  return conversation.visitorEmail ?? `Visitor ${conversation.id.slice(0, 6)}`;
}

const timeFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

function connectionText(state: StaffChatState): string | null {
  if (state.status === 'connecting') return 'Connecting…';
  if (state.status === 'reconnecting') return 'Connection lost. Reconnecting…';
  return null;
}

function ChatConsole({ chat }: { chat: StaffChat }) {
  const state = useStore(chat.store);
  const active = state.conversations.find((c) => c.id === state.activeId) ?? null;
  const thread = (state.activeId && state.threads[state.activeId]) || emptyThread;
  const connection = connectionText(state);

  if (state.status === 'refused') {
    return (
      <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
        Your session has ended.{' '}
        <Link to="/admin/login" className="font-semibold underline">
          Sign in again
        </Link>{' '}
        to answer chats.
      </p>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[17rem_minmax(0,1fr)] xl:grid-cols-[17rem_minmax(0,1fr)_18rem]">
      <section aria-labelledby="conversations-heading" className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="conversations-heading" className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900">
          Conversations
        </h2>
        <p role="status" className="px-4 text-sm text-slate-700 empty:hidden">
          {connection}
        </p>
        {state.loaded && state.conversations.length === 0 ? (
          <p className="px-4 py-3 text-sm text-slate-700">No conversations yet. New ones appear here as visitors write.</p>
        ) : (
          <ul className="max-h-[36rem] divide-y divide-slate-200 overflow-y-auto">
            {state.conversations.map((conversation) => (
              <li key={conversation.id}>
                <button
                  type="button"
                  onClick={() => void chat.open(conversation.id)}
                  aria-current={conversation.id === state.activeId ? 'true' : undefined}
                  className={cn(
                    'block w-full px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-700',
                    conversation.id === state.activeId && 'bg-blue-50',
                  )}
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="truncate font-medium text-slate-900">{visitorLabel(conversation)}</span>
                    {conversation.unread > 0 && (
                      <span className="shrink-0 rounded-full bg-blue-700 px-2 text-xs font-semibold text-white">
                        {conversation.unread}
                        <span className="sr-only"> unread</span>
                      </span>
                    )}
                  </span>
                  <span className="block text-xs text-slate-700">
                    {conversation.currentPage ? `On ${conversation.currentPage}` : 'Page unknown'}
                    {conversation.lastMessageAt && <> · {timeFormat.format(new Date(conversation.lastMessageAt))}</>}
                  </span>
                  {conversation.lastMessage && (
                    <span className="mt-0.5 block truncate text-sm text-slate-700">
                      {conversation.lastMessage.sender === 'staff' ? 'Staff: ' : ''}
                      {conversation.lastMessage.body}
                    </span>
                  )}
                  {state.typing[conversation.id] && <span className="block text-xs italic text-slate-700">typing…</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section
        aria-labelledby="conversation-heading"
        className={cn('flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white shadow-sm lg:h-[40rem]', active && 'h-[75vh]')}
      >
        <div className="border-b border-slate-200 px-4 py-3">
          <h2 id="conversation-heading" className="break-words text-lg font-semibold text-slate-900">
            {active ? visitorLabel(active) : 'Select a conversation'}
          </h2>
          {active && (
            <p className="break-words text-sm text-slate-700">
              {active.currentPage ? <>Visitor is on {active.currentPage}</> : 'Page unknown'}
              {active.visitorEmail && <> · left the email {active.visitorEmail}</>}
            </p>
          )}
        </div>
        {active ? (
          <>
            <MessageLog
              className="flex-1"
              messages={thread.messages}
              outbox={thread.outbox}
              mine="staff"
              labelOf={(m) => (m.sender === 'visitor' ? 'Visitor' : (m.senderName ?? 'Staff'))}
              onRetry={(clientId) => chat.retry(active.id, clientId)}
            />
            <p role="status" className="min-h-5 px-4 text-xs text-slate-700">
              {state.typing[active.id] ? 'The visitor is typing…' : ''}
            </p>
            <Composer label="Reply" placeholder="Type your reply…" onSend={(body) => chat.send(body)} onTyping={(typing) => chat.setTyping(typing)} />
          </>
        ) : (
          <p className="p-4 text-sm text-slate-700">Choose a conversation to read and answer it.</p>
        )}
      </section>

      <div className="min-w-0 lg:col-span-2 xl:col-span-1">
        <UpcomingBookings />
      </div>
    </div>
  );
}
