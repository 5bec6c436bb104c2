import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { DayPicker } from 'react-day-picker';
import type { BookingView } from '../../../shared/booking.ts';
import { selectTimeFirstMessage } from '../../../shared/booking-rules.ts';
import { formatInZone } from '../../../shared/time.ts';
import { addDays, localDateOf, parseIsoDate, toIsoDate, zoneAbbreviation } from '../../../shared/time.ts';
import { Button } from '../../components/ui/button.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Select } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { cn } from '../../lib/cn.ts';
import { usePublicConfig } from '../../lib/public-config.tsx';
import { trpc } from '../../lib/trpc.ts';
import { errorCode, errorMessage } from '../../lib/errors.ts';
import { timeZoneOptions } from './time-zones.ts';
import { NotarizeNow } from './notarize-now.tsx';

export interface BookingStepProps {
  booking: BookingView;
  timeZone: string;
  detectedTimeZone: string;
  onTimeZoneChange: (zone: string) => void;
  onHeld: () => Promise<void>;
}

/** A calendar day as DayPicker sees it (the browser's local midnight) ↔ 'YYYY-MM-DD'. */
const toPickerDate = (iso: string) => {
  const { year, month, day } = parseIsoDate(iso);
  return new Date(year, month - 1, day);
};
const fromPickerDate = (date: Date) => toIsoDate({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });

/** "Sunday, November 1, 2026": the visible day number stays a word of the button's name (WCAG 2.5.3). */
function dayButtonLabel(day: Date, modifiers: { today?: boolean; selected?: boolean; disabled?: boolean }): string {
  const text = day.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
  return `${modifiers.today ? 'Today, ' : ''}${text}${modifiers.selected ? ', selected' : ''}${modifiers.disabled ? ', unavailable' : ''}`;
}

export function BookingStep({ booking, timeZone, detectedTimeZone, onTimeZoneChange, onHeld }: BookingStepProps) {
  const config = usePublicConfig();
  const zoneId = useId();
  const slotsHeadingId = useId();
  const hintId = useId();
  // Coming back to this step shows the time already held.
  const [date, setDate] = useState<string | null>(() => (booking.startsAt ? localDateOf(booking.startsAt, timeZone) : null));
  const [startsAt, setStartsAt] = useState<Date | null>(booking.startsAt);
  const hold = trpc.booking.hold.useMutation();
  const utils = trpc.useUtils();

  const today = localDateOf(new Date(), timeZone);
  const lastDay = toIsoDate(addDays(parseIsoDate(today), config.bookingWindowDays));
  const slots = trpc.slots.list.useQuery({ date: date ?? today, timeZone }, { enabled: date !== null });

  const zoneLabel = useMemo(() => formatInZone(new Date(), timeZone).zone, [timeZone]);

  function chooseDate(next: Date | undefined) {
    // No time stays selected after the date changes (docs/product.md §4.3).
    setStartsAt(null);
    setDate(next ? fromPickerDate(next) : null);
  }

  function changeZone(zone: string) {
    setStartsAt(null);
    onTimeZoneChange(zone);
  }

  async function submit() {
    if (!date || !startsAt) {
      toast({ title: selectTimeFirstMessage, variant: 'destructive' });
      return;
    }
    try {
      await hold.mutateAsync({ bookingId: booking.id, startsAt, timeZone });
      toast({ title: 'Appointment time selected!', variant: 'success' });
      await onHeld();
    } catch (error) {
      toast({ title: errorMessage(error), variant: 'destructive' });
      if (errorCode(error) === 'CONFLICT') {
        // Someone else just took the last place: show the slots as they are now.
        setStartsAt(null);
        await utils.slots.list.invalidate({ date, timeZone });
      }
    }
  }

  const ready = date !== null && startsAt !== null;

  return (
    <div className="grid gap-6">
      <NotarizeNow booking={booking} timeZone={timeZone} onChosen={onHeld} />
      <div className="grid max-w-sm gap-1">
        <Label htmlFor={zoneId}>Time zone</Label>
        <Select id={zoneId} value={timeZone} onChange={(event) => changeZone(event.target.value)}>
          {timeZoneOptions(detectedTimeZone, timeZone).map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
              {option.id === detectedTimeZone ? ' (detected)' : ''}
            </option>
          ))}
        </Select>
      </div>

      <div className="grid gap-6 md:grid-cols-2">
        <div>
          <h3 className="mb-2 font-semibold text-slate-900">Choose a date</h3>
          <DayPicker
            mode="single"
            selected={date ? toPickerDate(date) : undefined}
            onSelect={chooseDate}
            disabled={[{ before: toPickerDate(today) }, { after: toPickerDate(lastDay) }]}
            startMonth={toPickerDate(today)}
            endMonth={toPickerDate(lastDay)}
            defaultMonth={date ? toPickerDate(date) : toPickerDate(today)}
            labels={{ labelDayButton: dayButtonLabel }}
            classNames={{
              root: 'inline-block rounded-xl border border-slate-200 bg-white p-3',
              months: 'relative',
              month_caption: 'flex h-10 items-center px-2 font-semibold text-slate-900',
              nav: 'absolute right-0 top-0 flex gap-1',
              button_previous:
                'inline-flex h-10 w-10 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:opacity-40',
              button_next:
                'inline-flex h-10 w-10 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:opacity-40',
              chevron: 'h-4 w-4 fill-current',
              month_grid: 'mt-2 border-collapse',
              weekday: 'h-9 w-10 text-xs font-medium text-slate-600',
              day: 'p-0 text-center',
              day_button:
                'h-10 w-10 rounded-full text-sm text-slate-900 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent',
              selected: '[&>button]:bg-blue-700 [&>button]:text-white [&>button]:hover:bg-blue-800',
              today: '[&>button]:font-bold [&>button]:underline',
              disabled: '',
              outside: 'invisible',
            }}
          />
        </div>

        <div>
          <h3 id={slotsHeadingId} className="mb-1 font-semibold text-slate-900">
            Choose a time
          </h3>
          <p className="mb-3 text-sm text-slate-600">Times are shown in {zoneLabel} ({timeZone}).</p>
          {date === null ? (
            <p className="text-sm text-slate-700">Select a date to see the available times.</p>
          ) : slots.isPending ? (
            <p className="text-sm text-slate-700" role="status">
              Loading available times...
            </p>
          ) : slots.isError ? (
            <p className="text-sm text-red-700" role="alert">
              {errorMessage(slots.error)}
            </p>
          ) : slots.data.slots.length === 0 ? (
            <p className="text-sm text-slate-700">No times are available on this date. Please choose another date.</p>
          ) : (
            <SlotRadioGroup
              slots={slots.data.slots}
              timeZone={timeZone}
              labelledBy={slotsHeadingId}
              selected={startsAt}
              onSelect={setStartsAt}
            />
          )}
        </div>
      </div>

      {ready && startsAt && (
        <p className="rounded-lg bg-blue-50 p-3 text-sm text-blue-950" role="status">
          Selected: {formatInZone(startsAt, timeZone).full}
        </p>
      )}

      <div className="flex flex-col items-end gap-2">
        {!ready && (
          <p id={hintId} className="text-sm text-slate-700">
            {selectTimeFirstMessage}
          </p>
        )}
        <Button size="lg" onClick={() => void submit()} disabled={!ready || hold.isPending} aria-describedby={ready ? undefined : hintId}>
          {hold.isPending ? 'Reserving...' : 'Continue'}
        </Button>
      </div>
    </div>
  );
}

/** Columns of the slot grid: Up and Down move by a row. */
const slotColumns = 3;

/**
 * The day's times as one radio group (WAI-ARIA APG "Radio Group"): one Tab
 * stop — the chosen time, else the first free one — and the arrow keys move
 * between free times and choose them (Left/Right one by one, Up/Down by a
 * row, Home/End to the ends). Taken times stay visible, disabled, and are
 * skipped. Choosing only marks the time here: nothing is held until Continue.
 */
function SlotRadioGroup({
  slots,
  timeZone,
  labelledBy,
  selected,
  onSelect,
}: {
  slots: { startsAt: Date; available: boolean }[];
  timeZone: string;
  labelledBy: string;
  selected: Date | null;
  onSelect: (startsAt: Date) => void;
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const selectedIndex = selected ? slots.findIndex((s) => s.startsAt.getTime() === selected.getTime()) : -1;
  const tabStop = selectedIndex >= 0 ? selectedIndex : slots.findIndex((s) => s.available);

  function move(event: KeyboardEvent<HTMLButtonElement>, from: number) {
    const free = slots.flatMap((s, i) => (s.available ? [i] : []));
    const position = free.indexOf(from);
    let target: number | undefined;
    switch (event.key) {
      case 'ArrowRight':
        target = free[(position + 1) % free.length];
        break;
      case 'ArrowLeft':
        target = free[(position - 1 + free.length) % free.length];
        break;
      case 'ArrowDown':
        // The next free time at least a row further on (or the last one).
        target = free.find((i) => i >= from + slotColumns) ?? free.at(-1);
        break;
      case 'ArrowUp':
        target = free.findLast((i) => i <= from - slotColumns) ?? free[0];
        break;
      case 'Home':
        target = free[0];
        break;
      case 'End':
        target = free.at(-1);
        break;
      default:
        return;
    }
    event.preventDefault();
    if (target === undefined) return;
    onSelect(slots[target]!.startsAt);
    buttons.current[target]?.focus();
  }

  return (
    <div
      role="radiogroup"
      aria-labelledby={labelledBy}
      className="grid max-h-80 grid-cols-3 gap-2 overflow-y-auto rounded-lg border border-slate-200 p-2"
      data-testid="slot-grid"
    >
      {slots.map((slot, index) => {
        const shown = formatInZone(slot.startsAt, timeZone);
        const checked = index === selectedIndex;
        const short = zoneAbbreviation(slot.startsAt, timeZone);
        return (
          <button
            key={slot.startsAt.toISOString()}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            disabled={!slot.available}
            tabIndex={index === tabStop ? 0 : -1}
            // The visible words first, in order (WCAG 2.5.3 label in name), then the zone in full.
            aria-label={`${shown.time} ${short} (${shown.zone})${slot.available ? '' : ', unavailable'}`}
            onClick={() => onSelect(slot.startsAt)}
            onKeyDown={(event) => move(event, index)}
            className={cn(
              'flex flex-col items-center rounded-md border px-2 py-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700',
              checked
                ? 'border-blue-700 bg-blue-700 text-white'
                : slot.available
                  ? 'border-slate-300 bg-white text-slate-900 hover:border-blue-700 hover:bg-blue-50'
                  : 'cursor-not-allowed border-slate-200 bg-slate-100 text-slate-500 line-through',
            )}
          >
            <span className="font-medium">{shown.time}</span>{' '}
            <span className={cn('text-xs', checked ? 'text-blue-100' : 'text-slate-600')}>{slot.available ? short : `${short} · Unavailable`}</span>
          </button>
        );
      })}
    </div>
  );
}
