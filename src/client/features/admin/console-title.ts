/**
 * The console's document title: the page's own title, prefixed with the
 * number of unread visitor messages ("(2) Bookings | NotaryOnline Staff") so
 * a staff member in another tab or page sees that a visitor is waiting.
 */
let pageTitle = 'NotaryOnline Staff';
let unread = 0;

function apply(): void {
  document.title = unread > 0 ? `(${unread}) ${pageTitle}` : pageTitle;
}

export function setConsolePageTitle(title: string): void {
  pageTitle = title;
  apply();
}

export function setConsoleUnread(count: number): void {
  if (count === unread) return;
  unread = count;
  apply();
}
