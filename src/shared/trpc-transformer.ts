import superjson, { type SuperJSONResult } from 'superjson';

/**
 * The tRPC transformer of both ends (server `trpc.ts`, client `lib/trpc.ts`):
 * superjson's wire format, without superjson's cost where it is not needed
 * (docs/decisions/048-database-endpoints-and-start-up.md, 053-trpc-fast-lane.md).
 *
 * Almost every payload is JSON plus Dates (and an `undefined` property here and
 * there). For those, one walk notes where the Dates and undefineds are and
 * hands JSON.stringify the value itself, or where it holds Dates a copy of
 * those branches with each Date as the toISOString superjson writes
 * (decision 053); an undefined property is
 * left out (superjson writes null there; its annotation restores undefined
 * either way), and the annotations are superjson's own (`{ json, meta: { values: { 'slots.0.startsAt': ['Date'] }, v: 1 } }`),
 * so superjson on either end reads it. Anything else (Map, Set, BigInt, NaN,
 * -0, class instances, a Date or undefined at the root, nesting past 64 levels,
 * which includes cycles) goes through superjson itself. Reading: a payload
 * without annotations is its `json` as it is (superjson deep-copies it first);
 * one with annotations is superjson's.
 */

type Annotations = Record<string, ['Date'] | ['undefined']>;

const maxDepth = 64;
/** superjson's path escaping (pathstringifier.ts): `\` and `.` inside a key are escaped. */
const escapeKey = (key: string) => (key.includes('.') || key.includes('\\') ? key.replace(/\\/g, '\\\\').replace(/\./g, '\\.') : key);
const pathOf = (segments: Array<string | number>) => segments.map((s) => escapeKey(String(s))).join('.');

/** What `encode` answers for anything superjson must handle. */
const unsupported = Symbol('unsupported');

/**
 * `value` as JSON.stringify should see it, noting each Date and undefined at
 * its path: the same value when it holds no Date, otherwise a copy of the
 * branches holding one with each Date as its toISOString (what superjson
 * writes). V8's JSON.stringify leaves its fast path at the first object with a
 * toJSON, so the Dates' strings are cheaper written in here: ~40 % of the
 * stringify of a day's slots (docs/decisions/053-trpc-fast-lane.md).
 */
function encode(value: unknown, segments: Array<string | number>, annotations: Annotations): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : unsupported;
    case 'undefined':
      annotations[pathOf(segments)] = ['undefined'];
      return undefined;
    case 'object':
      break;
    default:
      return unsupported;
  }
  if (value === null) return null;
  if (segments.length > maxDepth) return unsupported;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype === Date.prototype) {
    if (Number.isNaN((value as Date).getTime())) return unsupported;
    annotations[pathOf(segments)] = ['Date'];
    return (value as Date).toISOString();
  }
  if (prototype === Array.prototype) {
    const array = value as unknown[];
    let copy: unknown[] | undefined;
    for (let i = 0; i < array.length; i++) {
      segments.push(i);
      const item = encode(array[i], segments, annotations);
      segments.pop();
      if (item === unsupported) return unsupported;
      if (item !== array[i] && !copy) copy = array.slice();
      if (copy) copy[i] = item;
    }
    return copy ?? array;
  }
  if (prototype !== Object.prototype && prototype !== null) return unsupported;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    // superjson refuses the first three; toJSON would change what JSON.stringify writes.
    if (key === '__proto__' || key === 'constructor' || key === 'prototype' || key === 'toJSON') return unsupported;
    segments.push(key);
    const item = encode(record[key], segments, annotations);
    segments.pop();
    if (item === unsupported) return unsupported;
    if (item !== record[key] && !copy) copy = { ...record };
    if (copy) copy[key] = item;
  }
  return copy ?? record;
}

/**
 * Answers written once per frozen value: a producer that freezes what it
 * returns (deeply: `deepFreeze`) promises it never changes, so the same value
 * served again — `slots.list`'s shared answer (decision 116) — is not walked again.
 */
const frozenResults = new WeakMap<object, SuperJSONResult>();

/** `value`, each object and array in it frozen: its serialized form may be kept (`serialize`). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

export function serialize(value: unknown): SuperJSONResult {
  if (value !== null && typeof value === 'object' && Object.isFrozen(value)) {
    let result = frozenResults.get(value);
    if (!result) frozenResults.set(value, (result = serializeValue(value)));
    return result;
  }
  return serializeValue(value);
}

function serializeValue(value: unknown): SuperJSONResult {
  if (value === undefined || value instanceof Date) return superjson.serialize(value);
  const annotations: Annotations = {};
  const encoded = encode(value, [], annotations);
  if (encoded === unsupported) return superjson.serialize(value);
  const json = encoded as SuperJSONResult['json'];
  for (const _path in annotations) return { json, meta: { values: annotations as NonNullable<SuperJSONResult['meta']>['values'], v: 1 } };
  return { json };
}

export function deserialize(payload: unknown): unknown {
  if (payload !== null && typeof payload === 'object' && (payload as { meta?: unknown }).meta === undefined) {
    return (payload as { json?: unknown }).json;
  }
  return superjson.deserialize(payload as SuperJSONResult);
}

export const transformer = { serialize, deserialize };
