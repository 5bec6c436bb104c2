import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { deepFreeze, deserialize, serialize } from './trpc-transformer.ts';

/** What goes over the wire and comes back out of it. */
const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as never;

const slotsView = {
  date: '2027-03-11',
  timeZone: 'America/Chicago',
  slots: [
    { startsAt: new Date('2027-03-11T15:00:00.000Z'), remaining: 3, available: true },
    { startsAt: new Date('2027-03-11T15:30:00.000Z'), remaining: 0, available: false },
  ],
};
const bookingView = {
  id: '4f6f1d5e-3c1a-4b59-9a4e-0a3d2b1c9e8f',
  startsAt: new Date('2027-03-12T16:00:00.000Z'),
  holdExpiresAt: null,
  contact: { firstName: 'Ada', phone: '' },
  payment: undefined,
  documents: [],
  'a.b\\c': [1, undefined, 'x'],
};
const errorShape = { message: 'Too many requests.', code: -32029, data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, fieldErrors: undefined } };

describe('tRPC transformer', () => {
  it.each([
    ['plain JSON', { ok: true, n: 1.5, list: ['a', null, { deep: [false] }] }],
    ['a day of slots (Dates)', slotsView],
    ['a string', 'hello'],
    ['null', null],
  ])('writes what superjson writes: %s', (_name, value) => {
    expect(JSON.stringify(serialize(value))).toBe(JSON.stringify(superjson.serialize(value)));
  });

  it.each([
    ['a booking (Dates, undefined, a key needing escapes)', bookingView],
    ['an error shape', errorShape],
  ])('annotates undefined as superjson does, leaving the key out of json: %s', (_name, value) => {
    const ours = wire(serialize(value)) as { json: unknown; meta: unknown };
    const theirs = wire(superjson.serialize(value)) as { json: unknown; meta: unknown };
    expect(ours.meta).toEqual(theirs.meta);
    // superjson writes `null` there; either way the annotation makes it undefined again.
    expect(deserialize(ours)).toEqual(deserialize(theirs));
    expect(superjson.deserialize(ours as never)).toEqual(value);
  });

  it('round-trips Dates as Dates, and undefined properties', () => {
    const back = deserialize(wire(serialize(bookingView))) as typeof bookingView;
    expect(back).toEqual(bookingView);
    expect(back.startsAt).toBeInstanceOf(Date);
    expect('payment' in back).toBe(true);
    const slots = deserialize(wire(serialize(slotsView))) as typeof slotsView;
    expect(slots.slots[1]!.startsAt).toEqual(new Date('2027-03-11T15:30:00.000Z'));
  });

  it('hands JSON.stringify plain data: Dates as their ISO strings in a copy of their branches only, the value untouched', () => {
    const untouched = { id: 'b' };
    const value = { at: new Date('2027-03-11T15:30:00.000Z'), rows: [{ startsAt: new Date(0), n: 1 }, untouched], other: untouched, gone: undefined };
    const { json } = serialize(value) as { json: { at: unknown; rows: unknown[]; other: unknown } };
    expect(json).toEqual({ at: '2027-03-11T15:30:00.000Z', rows: [{ startsAt: '1970-01-01T00:00:00.000Z', n: 1 }, untouched], other: untouched, gone: undefined });
    expect(json.rows[1]).toBe(untouched);
    expect(json.other).toBe(untouched);
    expect(value.at).toBeInstanceOf(Date);
    expect((value.rows[0] as { startsAt: Date }).startsAt).toBeInstanceOf(Date);
  });

  it('passes plain JSON through without annotations or copies', () => {
    const value = { ok: true, items: [{ id: 'a' }] };
    const serialized = serialize(value);
    expect(serialized).toEqual({ json: value });
    expect(serialized.json).toBe(value);
    const payload = wire(serialized) as { json: unknown };
    expect(deserialize(payload)).toBe(payload.json);
  });

  it('is read by superjson, and reads superjson, at both ends', () => {
    expect(superjson.deserialize(wire(serialize(bookingView)))).toEqual(bookingView);
    expect(deserialize(wire(superjson.serialize(bookingView)))).toEqual(bookingView);
  });

  it('leaves what is not JSON and Dates to superjson', () => {
    const rich = { map: new Map([['k', 1]]), set: new Set([1]), big: 10n, nan: Number.NaN, minusZero: -0, at: new Date(0) };
    expect(JSON.stringify(serialize(rich))).toBe(JSON.stringify(superjson.serialize(rich)));
    expect(deserialize(wire(serialize(rich)))).toEqual(rich);
    // A bare Date, undefined (a mutation without input) and an invalid Date too.
    expect(deserialize(wire(serialize(new Date(5))))).toEqual(new Date(5));
    expect(deserialize(wire(serialize(undefined)))).toBeUndefined();
    expect(JSON.stringify(serialize({ at: new Date(Number.NaN) }))).toBe(JSON.stringify(superjson.serialize({ at: new Date(Number.NaN) })));
  });

  it('writes a deeply frozen value once, and walks any other value again', () => {
    const frozen = deepFreeze({ slots: [{ startsAt: new Date('2027-03-12T15:00:00Z'), remaining: 2 }] });
    expect(Object.isFrozen(frozen.slots[0])).toBe(true);
    const first = serialize(frozen);
    expect(serialize(frozen)).toBe(first);
    expect(first).toEqual(superjson.serialize(frozen));
    const plain = { slots: [{ startsAt: new Date('2027-03-12T15:00:00Z'), remaining: 2 }] };
    expect(serialize(plain)).not.toBe(serialize(plain));
    expect(serialize(plain)).toEqual(first);
  });

  it('does not loop on a cycle', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(JSON.stringify(serialize(cyclic))).toBe(JSON.stringify(superjson.serialize(cyclic)));
  });
});
