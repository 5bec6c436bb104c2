import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { chatNamespaces } from '../../../shared/chat.ts';
import { StaffChat, type StaffChatState } from '../chat/staff-chat.ts';
import { Store } from '../chat/store.ts';
import { useStore } from '../chat/use-store.ts';
import { setConsoleUnread } from './console-title.ts';

/**
 * One chat connection per console tab, opened by the signed-in layout for the
 * roles that answer chats (admin, staff), whatever page is open: the server
 * counts staff as available while any console tab is connected and switched
 * to Available, and every page shows the unread count (navigation badge and
 * title). The Chat page reads and answers through this same connection.
 */
const ConsoleChatContext = createContext<StaffChat | null>(null);

const awayKey = 'notary.console.away';
const alertsKey = 'notary.console.alerts';

function readFlag(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}

function writeFlag(key: string, value: boolean): void {
  try {
    window.localStorage.setItem(key, String(value));
  } catch {
    // Storage disabled: the choice lasts for this tab only.
  }
}

export function ConsoleChatProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const [chat, setChat] = useState<StaffChat | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let created: StaffChat | null = null;
    // Socket.IO's client is its own chunk, fetched after the console has rendered.
    void import('socket.io-client').then(({ io }) => {
      if (cancelled) return;
      const away = readFlag(awayKey);
      created = new StaffChat(io(chatNamespaces.staff, { auth: { away } }), { away });
      setChat(created);
    });
    return () => {
      cancelled = true;
      created?.close();
      setChat(null);
      setConsoleUnread(0);
    };
  }, [enabled]);

  // The Away switch is one choice per browser: another console tab follows it.
  useEffect(() => {
    if (!chat) return;
    const onStorage = (event: StorageEvent) => {
      if (event.key === awayKey) chat.setAway(event.newValue === 'true');
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [chat]);

  return (
    <ConsoleChatContext.Provider value={chat}>
      {chat && <UnreadWatcher chat={chat} />}
      {children}
    </ConsoleChatContext.Provider>
  );
}

export function useConsoleChat(): StaffChat | null {
  return useContext(ConsoleChatContext);
}

export function setAwayEverywhere(chat: StaffChat, away: boolean): void {
  writeFlag(awayKey, away);
  chat.setAway(away);
}

/** The unread total of all conversations, live. */
export function useUnreadTotal(chat: StaffChat | null): number {
  const state = useStore<Pick<StaffChatState, 'conversations'>>(chat?.store ?? emptyStore);
  return state.conversations.reduce((sum, c) => sum + c.unread, 0);
}
/** Stands in until the connection exists (hooks cannot be conditional). */
const emptyStore = new Store<Pick<StaffChatState, 'conversations'>>({ conversations: [] });

/** Title prefix on every console page, and the optional sound / desktop alert when new visitor messages arrive. */
function UnreadWatcher({ chat }: { chat: StaffChat }) {
  const unread = useUnreadTotal(chat);
  const previous = useRef(unread);
  useEffect(() => {
    setConsoleUnread(unread);
    const grew = unread > previous.current;
    previous.current = unread;
    if (grew && readFlag(alertsKey)) alert(unread);
  }, [unread]);
  return null;
}

export function alertsEnabled(): boolean {
  return readFlag(alertsKey);
}

/** Turns the sound and desktop alerts on or off; turning on asks for the browser's notification permission. */
export async function setAlerts(on: boolean): Promise<void> {
  writeFlag(alertsKey, on);
  if (on && 'Notification' in window && Notification.permission === 'default') {
    await Notification.requestPermission().catch(() => 'denied');
  }
}

function alert(unread: number): void {
  beep();
  if ('Notification' in window && Notification.permission === 'granted' && document.visibilityState === 'hidden') {
    new Notification('New chat message', { body: `${unread} unread visitor ${unread === 1 ? 'message' : 'messages'}`, tag: 'notary-chat' });
  }
}

/** A short two-tone chime, made on the spot (no audio file to fetch). */
export function beep(): void {
  try {
    const audio = new AudioContext();
    const gain = audio.createGain();
    gain.gain.value = 0.08;
    gain.connect(audio.destination);
    [880, 1320].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(audio.currentTime + i * 0.15);
      tone.stop(audio.currentTime + i * 0.15 + 0.12);
    });
    setTimeout(() => void audio.close(), 600);
  } catch {
    // No audio output (or blocked until the page is interacted with): the badge and title still tell.
  }
}
