/**
 * Makes a browser's live WebM seekable (docs/decisions/103-recording-composite.md).
 *
 * MediaRecorder writes a "live" WebM: a Segment and Clusters of unknown size,
 * no Duration, no Cues, so players show no length and cannot seek far. Two
 * streaming passes over the same bytes fix that without holding the file:
 * `indexWebm` reads the structure (the header, Info and Tracks, and for each
 * Cluster where its children lie, its time and its first key frame), keeping
 * only a few numbers per cluster; `seekableWebm` then writes the EBML header,
 * a Segment of known size with a SeekHead (Info, Tracks, Cues), Info with a
 * Duration, Tracks, every Cluster with its size, and Cues at the end. The
 * blocks themselves are copied byte for byte. Memory: the cluster list (a few
 * thousand entries for an hour) and the reader's window.
 */

const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Duration: 0x4489,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  ReferenceBlock: 0xfb,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  CueTime: 0xb3,
  CueTrackPositions: 0xb7,
  CueTrack: 0xf7,
  CueClusterPosition: 0xf1,
  Void: 0xec,
  Tags: 0x1254c367,
  Chapters: 0x1043a770,
  Attachments: 0x1941a469,
} as const;

/** Top-level elements: one of these ends a Cluster of unknown size. */
const topLevel = new Set<number>([ID.SeekHead, ID.Info, ID.Tracks, ID.Cluster, ID.Cues, ID.Tags, ID.Chapters, ID.Attachments, ID.EBML]);
/** Small top-level elements kept as they are (moved before the clusters); at most this much of them. */
const maxKeptBytes = 1024 * 1024;

export class NotWebmError extends Error {}

/** A window over a stream of buffers: peek a few bytes, skip or copy the rest; counts the position. */
class Reader {
  private buffers: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  pos = 0;
  private readonly source: AsyncIterator<Buffer>;
  constructor(source: AsyncIterator<Buffer>) {
    this.source = source;
  }

  /** Whether `n` bytes are available from here (false: the stream ends sooner). */
  async fill(n: number): Promise<boolean> {
    while (this.buffered < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else if (next.value.length) {
        this.buffers.push(next.value);
        this.buffered += next.value.length;
      }
    }
    return this.buffered >= n;
  }

  /** Up to `n` bytes from here, not consumed. */
  async peek(n: number): Promise<Buffer> {
    await this.fill(n);
    if (this.buffers.length > 1 && this.buffers[0]!.length < n) this.buffers = [Buffer.concat(this.buffers)];
    return (this.buffers[0] ?? Buffer.alloc(0)).subarray(0, n);
  }

  /** Consumes `n` bytes, yielding them piece by piece; stops early at the end of the stream. */
  async *take(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (!(await this.fill(1))) return;
      const head = this.buffers[0]!;
      const piece = head.length <= left ? head : head.subarray(0, left);
      if (piece === head) this.buffers.shift();
      else this.buffers[0] = head.subarray(left);
      this.buffered -= piece.length;
      this.pos += piece.length;
      left -= piece.length;
      yield piece;
    }
  }

  /** Consumes `n` bytes; false when the stream ended first. */
  async skip(n: number): Promise<boolean> {
    let got = 0;
    for await (const piece of this.take(n)) got += piece.length;
    return got === n;
  }

  async read(n: number): Promise<Buffer | null> {
    const pieces: Buffer[] = [];
    for await (const piece of this.take(n)) pieces.push(piece);
    const all = Buffer.concat(pieces);
    return all.length === n ? all : null;
  }
}

async function* iterate(source: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  yield* source;
}

interface Header {
  id: number;
  /** null: unknown size (a live stream's Segment or Cluster). */
  size: number | null;
  length: number;
}

/** An element's ID and size at the start of `bytes`, or null when they are cut off or malformed. */
function parseHeader(bytes: Buffer): Header | null {
  if (bytes.length < 2) return null;
  const first = bytes[0]!;
  const idLength = first >= 0x80 ? 1 : first >= 0x40 ? 2 : first >= 0x20 ? 3 : first >= 0x10 ? 4 : 0;
  if (!idLength || bytes.length < idLength + 1) return null;
  const id = bytes.readUIntBE(0, idLength);
  const s = bytes[idLength]!;
  let sizeLength = 1;
  while (sizeLength <= 8 && !(s & (0x80 >> (sizeLength - 1)))) sizeLength++;
  if (sizeLength > 8 || bytes.length < idLength + sizeLength) return null;
  let value = s & (0xff >> sizeLength);
  let allOnes = value === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i++) {
    const b = bytes[idLength + i]!;
    value = value * 256 + b;
    allOnes &&= b === 0xff;
  }
  return { id, size: allOnes ? null : value, length: idLength + sizeLength };
}

function readUint(bytes: Buffer): number {
  return bytes.length === 0 ? 0 : bytes.length <= 6 ? bytes.readUIntBE(0, bytes.length) : Number(bytes.readBigUInt64BE(bytes.length - 8));
}

/** The children of a small master element (Info, Tracks, a TrackEntry), as [id, content] pairs. */
function children(content: Buffer): [number, Buffer][] {
  const out: [number, Buffer][] = [];
  let at = 0;
  while (at < content.length) {
    const header = parseHeader(content.subarray(at, at + 12));
    if (!header || header.size === null || at + header.length + header.size > content.length) throw new NotWebmError('malformed element');
    out.push([header.id, content.subarray(at + header.length, at + header.length + header.size)]);
    at += header.length + header.size;
  }
  return out;
}

interface ClusterIndex {
  /** Where the cluster's children lie in the input (copied as they are). */
  start: number;
  end: number;
  /** The time of its first key frame on the cue track, in timecode ticks; null: none. */
  cueTime: number | null;
}

export interface WebmIndex {
  headerEnd: number;
  /** Nanoseconds per tick (1 000 000: milliseconds). */
  timecodeScale: number;
  info: Buffer[];
  tracks: Buffer;
  kept: Buffer[];
  clusters: ClusterIndex[];
  cueTrack: number;
  /** Ticks from the first block to the end of the last one. */
  durationTicks: number;
  /** Where each track's last block ends, in ticks. */
  trackEnds: Map<number, number>;
  /** The input stopped in the middle of an element (the rest is left out). */
  truncated: boolean;
}

/** Reads the structure of a WebM stream (first pass). Throws NotWebmError if it is not one we can rewrite. */
export async function indexWebm(source: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<WebmIndex> {
  const reader = new Reader(iterate(source));
  const nextHeader = async () => parseHeader(await reader.peek(12));

  const ebml = await nextHeader();
  if (!ebml || ebml.id !== ID.EBML || ebml.size === null || !(await reader.skip(ebml.length + ebml.size))) throw new NotWebmError('no EBML header');
  const headerEnd = reader.pos;
  const segment = await nextHeader();
  if (!segment || segment.id !== ID.Segment) throw new NotWebmError('no Segment');
  await reader.skip(segment.length);
  const segmentEnd = segment.size === null ? Infinity : reader.pos + segment.size;

  let timecodeScale = 1_000_000;
  let info: Buffer[] | null = null;
  let tracks: Buffer | null = null;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const clusters: ClusterIndex[] = [];
  const trackTypes = new Map<number, number>();
  const last = new Map<number, { time: number; step: number }>();
  let firstTime: number | null = null;
  let truncated = false;
  let cueTrack = 0;

  const noteBlock = (cluster: ClusterIndex, timecode: number, head: Buffer, keyframe: boolean | null) => {
    const track = parseHeader(Buffer.concat([Buffer.from([0x80]), head]));
    // The block's track number is a size-like number after a one-byte stand-in ID.
    if (!track || track.size === null) return;
    const at = track.length - 1;
    if (head.length < at + 3) return;
    const time = timecode + head.readInt16BE(at);
    const isKey = keyframe ?? (head[at + 2]! & 0x80) !== 0;
    const before = last.get(track.size);
    last.set(track.size, { time, step: before && time > before.time ? time - before.time : (before?.step ?? 0) });
    firstTime = firstTime === null ? time : Math.min(firstTime, time);
    if (track.size === cueTrack && isKey && cluster.cueTime === null) cluster.cueTime = time;
  };

  outer: while (reader.pos < segmentEnd) {
    const element = await nextHeader();
    if (!element) break;
    if (element.id === ID.EBML) break; // a second stream glued on: not ours to join
    if (element.id === ID.Cluster) {
      await reader.skip(element.length);
      const cluster: ClusterIndex = { start: reader.pos, end: reader.pos, cueTime: null };
      const end = element.size === null ? Infinity : reader.pos + element.size;
      let timecode = 0;
      if (!info || !tracks) throw new NotWebmError('a Cluster before Info and Tracks');
      while (reader.pos < end) {
        const child = await nextHeader();
        if (!child) break;
        if (element.size === null && topLevel.has(child.id)) break;
        if (child.size === null) throw new NotWebmError('a cluster child of unknown size');
        const childStart = reader.pos;
        if (child.id === ID.Timecode || child.id === ID.SimpleBlock) {
          const head = await reader.peek(child.length + Math.min(child.size, 12));
          if (child.id === ID.Timecode) timecode = readUint(head.subarray(child.length, child.length + child.size));
          else noteBlock(cluster, timecode, head.subarray(child.length), null);
        } else if (child.id === ID.BlockGroup && child.size <= maxKeptBytes) {
          const group = await reader.peek(child.length + child.size);
          if (group.length === child.length + child.size) {
            const parts = children(group.subarray(child.length));
            const block = parts.find(([id]) => id === ID.Block);
            if (block) noteBlock(cluster, timecode, block[1].subarray(0, 12), !parts.some(([id]) => id === ID.ReferenceBlock));
          }
        }
        if (!(await reader.skip(child.length + child.size))) {
          // Cut off in the middle of this child: the cluster ends before it, and so does the file.
          cluster.end = childStart;
          truncated = true;
          if (cluster.end > cluster.start) clusters.push(cluster);
          break outer;
        }
        cluster.end = reader.pos;
      }
      if (cluster.end > cluster.start) clusters.push(cluster);
      continue;
    }
    if (element.size === null) throw new NotWebmError('a top-level element of unknown size');
    if (element.id === ID.Info || element.id === ID.Tracks || (element.id !== ID.SeekHead && element.id !== ID.Cues && element.id !== ID.Void)) {
      if (element.size > maxKeptBytes - keptBytes) throw new NotWebmError('a large top-level element');
      const whole = await reader.read(element.length + element.size);
      if (!whole) {
        truncated = true;
        break;
      }
      const content = whole.subarray(element.length);
      if (element.id === ID.Info) {
        info = [];
        for (const [id, value] of children(content)) {
          if (id === ID.TimecodeScale) timecodeScale = readUint(value) || timecodeScale;
          if (id !== ID.Duration) info.push(el(id, value));
        }
      } else if (element.id === ID.Tracks) {
        tracks = whole;
        for (const [id, entry] of children(content)) {
          if (id !== ID.TrackEntry) continue;
          const fields = new Map(children(entry));
          trackTypes.set(readUint(fields.get(ID.TrackNumber) ?? Buffer.alloc(0)), readUint(fields.get(ID.TrackType) ?? Buffer.alloc(0)));
        }
        // Cues point to the video's key frames (the audio's when there is no video).
        cueTrack = [...trackTypes].find(([, type]) => type === 1)?.[0] ?? [...trackTypes.keys()][0] ?? 0;
      } else {
        kept.push(whole);
        keptBytes += whole.length;
      }
      continue;
    }
    // An old SeekHead or Cues (positions no longer true), padding: left out.
    if (!(await reader.skip(element.length + element.size))) {
      truncated = true;
      break;
    }
  }
  if (!info || !tracks) throw new NotWebmError('no Info or Tracks');
  if (clusters.length === 0) throw new NotWebmError('no media');

  const trackEnds = new Map<number, number>();
  for (const [track, { time, step }] of last) trackEnds.set(track, time + step);
  const end = Math.max(...trackEnds.values());
  return { headerEnd, timecodeScale, info, tracks, kept, clusters, cueTrack, durationTicks: end - (firstTime ?? 0), trackEnds, truncated };
}

// ---- Writing -------------------------------------------------------------------------

function idBytes(id: number): Buffer {
  const length = id > 0xffffff ? 4 : id > 0xffff ? 3 : id > 0xff ? 2 : 1;
  const out = Buffer.alloc(length);
  out.writeUIntBE(id, 0, length);
  return out;
}

function sizeBytes(size: number, length?: number): Buffer {
  let n = length ?? 1;
  if (length === undefined) while (size >= 2 ** (7 * n) - 1) n++;
  const out = Buffer.alloc(n);
  let value = size;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = value % 256;
    value = Math.floor(value / 256);
  }
  out[0]! |= 0x80 >> (n - 1);
  return out;
}

function el(id: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([idBytes(id), sizeBytes(body.length), body]);
}

function uint(value: number, length?: number): Buffer {
  let n = length ?? 1;
  if (length === undefined) while (value >= 2 ** (8 * n)) n++;
  const out = Buffer.alloc(n);
  let v = value;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}

function float64(value: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeDoubleBE(value);
  return out;
}

/** What the rewritten file will say: its duration (ms), per track too. */
export function durationsMs(index: WebmIndex): { durationMs: number; trackEndsMs: Map<number, number> } {
  const toMs = (ticks: number) => (ticks * index.timecodeScale) / 1_000_000;
  return { durationMs: Math.round(toMs(index.durationTicks)), trackEndsMs: new Map([...index.trackEnds].map(([t, end]) => [t, toMs(end)])) };
}

/** The seekable file (second pass over the same bytes as `indexWebm` read). */
export async function* seekableWebm(source: AsyncIterable<Buffer> | Iterable<Buffer>, index: WebmIndex): AsyncGenerator<Buffer> {
  const reader = new Reader(iterate(source));
  const seekHead = (positions: [number, number][]) =>
    el(ID.SeekHead, ...positions.map(([id, position]) => el(ID.Seek, el(ID.SeekID, idBytes(id)), el(ID.SeekPosition, uint(position, 8)))));
  const info = el(ID.Info, ...index.info, el(ID.Duration, float64(index.durationTicks)));
  const clusterHeader = (size: number) => Buffer.concat([idBytes(ID.Cluster), sizeBytes(size, 8)]);

  // Positions are counted from the start of the Segment's content.
  const seekHeadLength = seekHead([[ID.Info, 0], [ID.Tracks, 0], [ID.Cues, 0]]).length;
  const infoAt = seekHeadLength;
  const tracksAt = infoAt + info.length;
  let at = tracksAt + index.tracks.length + index.kept.reduce((sum, b) => sum + b.length, 0);
  const cuePoints: Buffer[] = [];
  for (const cluster of index.clusters) {
    if (cluster.cueTime !== null) {
      cuePoints.push(el(ID.CuePoint, el(ID.CueTime, uint(cluster.cueTime)), el(ID.CueTrackPositions, el(ID.CueTrack, uint(index.cueTrack)), el(ID.CueClusterPosition, uint(at)))));
    }
    at += 12 + (cluster.end - cluster.start);
  }
  const cuesAt = at;
  const cues = el(ID.Cues, ...cuePoints);
  const segmentSize = cuesAt + cues.length;

  for await (const piece of reader.take(index.headerEnd)) yield piece;
  yield Buffer.concat([idBytes(ID.Segment), sizeBytes(segmentSize, 8)]);
  yield seekHead([
    [ID.Info, infoAt],
    [ID.Tracks, tracksAt],
    [ID.Cues, cuesAt],
  ]);
  yield info;
  yield index.tracks;
  yield* index.kept;
  for (const cluster of index.clusters) {
    if (!(await reader.skip(cluster.start - reader.pos))) throw new Error('the recording changed between the two passes');
    yield clusterHeader(cluster.end - cluster.start);
    let copied = 0;
    for await (const piece of reader.take(cluster.end - cluster.start)) {
      copied += piece.length;
      yield piece;
    }
    if (copied !== cluster.end - cluster.start) throw new Error('the recording changed between the two passes');
  }
  yield cues;
}
