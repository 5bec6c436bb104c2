import superjson, { type SuperJSONResult } from 'superjson';

/**
 * The tRPC transformer of both ends (server `trpc.ts`, client `lib/trpc.ts`):
 * superjson's wire format, without superjson's cost where it is not needed
 * (docs/decisions/048-database-endpoints-and-start-up.md).
 *
 * Almost every payload is JSON plus Dates (and an `undefined` property here and
 * there). For those, one read-only walk notes where the Dates and undefineds
 * are and the value itself is handed to JSON.stringify as it is: a Date's
 * toJSON is the same toISOString superjson writes, an undefined property is
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

/** Notes each Date and undefined of `value` at `segments`; false at anything superjson must handle. */
function annotate(value: unknown, segments: Array<string | number>, annotations: Annotations): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'undefined':
      annotations[pathOf(segments)] = ['undefined'];
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (segments.length > maxDepth) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype === Date.prototype) {
    if (Number.isNaN((value as Date).getTime())) return false;
    annotations[pathOf(segments)] = ['Date'];
    return true;
  }
  if (prototype === Array.prototype) {
    const array = value as unknown[];
    for (let i = 0; i < array.length; i++) {
      segments.push(i);
      const ok = annotate(array[i], segments, annotations);
      segments.pop();
      if (!ok) return false;
    }
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    // superjson refuses the first three; toJSON would change what JSON.stringify writes.
    if (key === '__proto__' || key === 'constructor' || key === 'prototype' || key === 'toJSON') return false;
    segments.push(key);
    const ok = annotate(record[key], segments, annotations);
    segments.pop();
    if (!ok) return false;
  }
  return true;
}

export function serialize(value: unknown): SuperJSONResult {
  if (value === undefined || value instanceof Date) return superjson.serialize(value);
  const annotations: Annotations = {};
  if (!annotate(value, [], annotations)) return superjson.serialize(value);
  // Dates stay Dates in `json`: JSON.stringify writes their toISOString, as superjson does.
  const json = value as SuperJSONResult['json'];
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
