import { CalendarPlus } from 'lucide-react';
import { googleCalendarUrl, outlookCalendarUrl, type CalendarEvent } from '../../shared/calendar.ts';
import { Button } from './ui/button.tsx';

/**
 * 'Add to Calendar' (our .ics file) and, when the appointment is known, Google
 * and Outlook links in a new tab: in full on the wizard's confirmation, as
 * small outline buttons with short names on the manage page.
 */
export function CalendarLinks({ icsHref, reference, event, compact = false }: { icsHref: string; reference: string; event: CalendarEvent | null; compact?: boolean }) {
  const size = compact ? 'sm' : undefined;
  return (
    <>
      <Button asChild variant={compact ? 'outline' : undefined} size={size}>
        <a href={icsHref} download={`${reference}.ics`}>
          <CalendarPlus className="h-4 w-4" aria-hidden="true" />
          Add to Calendar
        </a>
      </Button>
      {event && <NewTabLink href={googleCalendarUrl(event)} label={compact ? 'Google Calendar' : 'Add to Google Calendar'} size={size} />}
      {event && <NewTabLink href={outlookCalendarUrl(event)} label={compact ? 'Outlook' : 'Add to Outlook Calendar'} size={size} />}
    </>
  );
}

function NewTabLink({ href, label, size }: { href: string; label: string; size: 'sm' | undefined }) {
  return (
    <Button asChild variant="outline" size={size}>
      <a href={href} target="_blank" rel="noopener noreferrer">
        {label}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    </Button>
  );
}
