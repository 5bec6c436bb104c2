import { MessageCircle } from 'lucide-react';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

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
        className="fixed bottom-4 right-4 z-40 inline-flex h-14 items-center gap-2 rounded-full bg-blue-700 px-5 font-semibold text-white shadow-lg hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        <MessageCircle aria-hidden="true" className="h-5 w-5" />
        Chat with us
        {unread > 0 && !open && (
          <span className="ml-1 rounded-full bg-white px-2 text-sm text-blue-800">
            {unread}
            <span className="sr-only"> new {unread === 1 ? 'message' : 'messages'}</span>
          </span>
        )}
      </button>
      {loaded && (
        <Suspense
          fallback={
            <p role="status" className="fixed bottom-24 right-4 z-50 rounded-lg bg-white px-4 py-3 text-sm text-slate-800 shadow-lg">
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
