// Placeholder: the live-chat work replaces this with the chat button, whose widget code loads only when opened.
export function ChatLauncher() {
  return null;
}
