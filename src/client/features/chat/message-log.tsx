import { useEffect, useRef, type ReactNode } from 'react';
import type { ChatMessage } from '../../../shared/chat.ts';
import { cn } from '../../lib/cn.ts';
import type { OutgoingMessage } from './thread.ts';

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

/**
 * The messages of one conversation, oldest first, then the outbox. A `log`
 * region: screen readers announce new messages politely; it scrolls, so it
 * is focusable for keyboard users.
 */
export function MessageLog({
  messages,
  outbox,
  mine,
  labelOf,
  onRetry,
  empty,
  className,
}: {
  messages: ChatMessage[];
  outbox: OutgoingMessage[];
  /** Which sender is "me" on this screen. */
  mine: ChatMessage['sender'];
  labelOf: (message: ChatMessage) => string;
  onRetry: (clientId: string) => void;
  empty?: ReactNode;
  className?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const count = messages.length + outbox.length;
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [count]);

  return (
    <div ref={scroller} role="log" aria-label="Messages" tabIndex={0} className={cn('overflow-y-auto px-4 py-3 focus-visible:outline-2 focus-visible:outline-blue-700', className)}>
      {count === 0 && empty}
      <ol className="flex flex-col gap-2">
        {messages.map((message) => (
          <Bubble key={message.id} own={message.sender === mine} label={labelOf(message)} time={message.createdAt} body={message.body} />
        ))}
        {outbox.map((item) => (
          <Bubble key={item.clientId} own label="You" time={item.createdAt} body={item.body}>
            {item.status === 'sending' ? (
              <span className="text-xs text-blue-100">Sending…</span>
            ) : (
              <span className="flex flex-wrap items-center gap-2 text-xs font-medium text-white">
                Not sent: {item.error}
                <button type="button" onClick={() => onRetry(item.clientId)} className="rounded bg-white px-2 py-0.5 text-blue-800 underline-offset-2 hover:underline">
                  Retry
                </button>
              </span>
            )}
          </Bubble>
        ))}
      </ol>
    </div>
  );
}

function Bubble({ own, label, time, body, children }: { own: boolean; label: string; time: string; body: string; children?: ReactNode }) {
  return (
    <li className={cn('max-w-[85%] rounded-lg px-3 py-2', own ? 'self-end bg-blue-700 text-white' : 'self-start bg-slate-100 text-slate-900')}>
      <p className={cn('text-xs', own ? 'text-blue-100' : 'text-slate-700')}>
        <span className="font-semibold">{label}</span> · <time dateTime={time}>{timeFormat.format(new Date(time))}</time>
      </p>
      <p className="whitespace-pre-wrap break-words text-sm">{body}</p>
      {children}
    </li>
  );
}
