import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { durationsMs, indexWebm, NotWebmError, seekableWebm } from './webm.ts';

/**
 * The seekable rewrite against a real browser recording:
 * tests/fixtures/mediarecorder-live.webm is Chromium 156's MediaRecorder output
 * (vp8 + opus, a 320×240 canvas at 16 fps and an oscillator, 1 s timeslices,
 * a key frame a second, the 5 chunks joined as the assembly joins them): live
 * WebM, no Duration, no Cues. ffprobe (Debian's ffmpeg, installed by .ci/run)
 * reads the result as a player would.
 */

const live = readFileSync('tests/fixtures/mediarecorder-live.webm');

/** The bytes in pieces of `size` (uploads and storage streams cut anywhere). */
function* pieces(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
async function* stream(bytes: Buffer, size: number) {
  yield* pieces(bytes, size);
}
async function rewrite(bytes: Buffer, size = 777) {
  const index = await indexWebm(stream(bytes, size));
  const out: Buffer[] = [];
  for await (const piece of seekableWebm(stream(bytes, size + 13), index)) out.push(piece);
  return { index, file: Buffer.concat(out) };
}

function ffprobe(file: Buffer, args: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'webm-'));
  const at = path.join(dir, 'recording.webm');
  writeFileSync(at, file);
  const run = spawnSync('ffprobe', ['-v', 'error', ...args, at], { encoding: 'utf8' });
  if (run.error) throw run.error;
  expect(run.stderr).toBe('');
  return run.stdout;
}
const formatDuration = (file: Buffer) => ffprobe(file, ['-show_entries', 'format=duration', '-of', 'csv=p=0']).trim();
const framesPerStream = (file: Buffer) => ffprobe(file, ['-count_frames', '-show_entries', 'stream=codec_type,nb_read_frames', '-of', 'csv=p=0']).trim();

describe('seekable WebM', () => {
  it('the browser’s file has no duration; rewritten, it has its Duration, Cues on the video key frames, and every frame', async () => {
    expect(formatDuration(live)).toBe('N/A');
    const { index, file } = await rewrite(live);
    expect(index.truncated).toBe(false);
    expect(durationsMs(index).durationMs).toBe(4179);
    expect(Number(formatDuration(file))).toBeCloseTo(4.179, 3);
    // Nothing of the media is lost or changed: the same frames decode.
    expect(framesPerStream(file)).toBe(framesPerStream(live));
    // The Segment has its size; a SeekHead names Info, Tracks and Cues; each cue points at a Cluster.
    const segmentAt = live.indexOf(Buffer.from('18538067', 'hex'));
    const segmentData = segmentAt + 4 + 8;
    expect(file.readUInt8(segmentAt + 4)).toBe(0x01);
    expect(Number(file.readBigUInt64BE(segmentAt + 4) & 0x00ffffffffffffffn)).toBe(file.length - segmentData);
    const seekPositions = [...file.subarray(segmentData, segmentData + 68).toString('hex').matchAll(/53ac88([0-9a-f]{16})/g)].map((m) => Number.parseInt(m[1]!, 16));
    expect(seekPositions.map((p) => file.subarray(segmentData + p, segmentData + p + 4).toString('hex'))).toEqual(['1549a966', '1654ae6b', '1c53bb6b']);
    const cuesAt = segmentData + seekPositions[2]!;
    const cueClusters = [...file.subarray(cuesAt).toString('hex').matchAll(/f1(8[1-8])/g)];
    expect(cueClusters.length).toBeGreaterThanOrEqual(4);
    const reread = await indexWebm([file]);
    const cued = reread.clusters.filter((c) => c.cueTime !== null);
    expect(cued.length).toBe(index.clusters.filter((c) => c.cueTime !== null).length);
    // Video is track 2 here: the cues follow its key frames, not the audio.
    expect(index.cueTrack).toBe(2);
    // The same result however the bytes are cut.
    expect((await rewrite(live, 1)).file.equals(file)).toBe(true);
  });

  it('a recording cut off mid-cluster (a crashed browser) keeps what is whole and is still seekable', async () => {
    const cut = live.subarray(0, 70_001);
    const { index, file } = await rewrite(cut);
    expect(index.truncated).toBe(true);
    const duration = Number(formatDuration(file));
    expect(duration).toBeGreaterThan(1.5);
    expect(duration).toBeLessThan(4);
    expect(ffprobe(file, ['-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0'])).toMatch(/\d+/);
  });

  it('refuses what is not a WebM (stored as received instead)', async () => {
    await expect(indexWebm(stream(Buffer.from('first-chunk|second-chunk|third'), 5))).rejects.toBeInstanceOf(NotWebmError);
    await expect(indexWebm(stream(live.subarray(0, 200), 64))).rejects.toBeInstanceOf(NotWebmError);
  });
});
