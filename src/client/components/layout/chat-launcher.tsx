import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { MessageCircleIcon } from './icons.tsx';

// The widget, Radix Dialog and the Socket.IO client are their own chunk,
// downloaded only when the visitor first opens the chat.
const ChatWidget = lazy(() => import('../../features/chat/chat-widget.tsx'));

/** The floating chat button on every public page. */
export function ChatLauncher() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [unread, setUnread] = useState(0);
  const launcher = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const onUnreadChange = useCallback((count: number) => setUnread(count), []);

  return (
    <>
      <button
        ref={launcher}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setLoaded(true);
          setOpen((value) => !value);
        }}
        // Kept off the page's content: on phones it sits in the sticky header, beside the menu button;
        // wider, a round button in the corner, outside the content column (a wide pill covered the
        // wizard's controls at 1280 px); the label shows only on very wide screens.
        className="fixed right-16 top-2 z-[60] inline-flex h-12 min-w-12 items-center justify-center gap-2 rounded-full bg-blue-700 px-3 font-semibold text-white shadow-lg hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 md:bottom-3 md:right-3 md:top-auto md:z-40 2xl:h-14 2xl:px-5"
        data-testid="chat-launcher"
      >
        <MessageCircleIcon className="h-6 w-6 2xl:h-5 2xl:w-5" />
        <span className="sr-only 2xl:not-sr-only">Chat with us</span>
        {unread > 0 && !open && (
          <span className="absolute -right-1 -top-1 rounded-full bg-white px-1.5 text-xs font-bold text-blue-800 ring-2 ring-blue-700 2xl:static 2xl:ml-1 2xl:px-2 2xl:text-sm 2xl:ring-0">
            {unread}
            <span className="sr-only"> new {unread === 1 ? 'message' : 'messages'}</span>
          </span>
        )}
      </button>
      {loaded && (
        <Suspense
          fallback={
            <p role="status" className="fixed right-4 top-16 z-50 rounded-lg bg-white px-4 py-3 text-sm text-slate-800 shadow-lg md:bottom-24 md:top-auto">
              Loading chat…
            </p>
          }
        >
          <ChatWidget open={open} onOpenChange={setOpen} page={pathname} onUnreadChange={onUnreadChange} launcherRef={launcher} />
        </Suspense>
      )}
    </>
  );
}
