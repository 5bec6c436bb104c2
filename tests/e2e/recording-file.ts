import { spawnSync } from 'node:child_process';
import { compositeHeight, compositeWidth } from '../../src/shared/recording.ts';

/**
 * A stored session recording as a player reads it (ffprobe, ffmpeg): its
 * duration, its streams, and single frames as grey levels — shared by the
 * two-browser and the four-browser journeys and the recording bench
 * (decision 103), so it throws rather than using vitest's `expect`.
 */

/** What ffprobe says of a stored recording: its duration, each stream's size, frames and end. */
export function ffprobeRecording(file: string) {
  const run = (args: string[]) => {
    const result = spawnSync('ffprobe', ['-v', 'error', ...args, file], { encoding: 'utf8' });
    if (result.stderr !== '') throw new Error(`ffprobe ${file}: ${result.stderr}`);
    return result.stdout;
  };
  const duration = Number(run(['-show_entries', 'format=duration', '-of', 'csv=p=0']).trim());
  const streams = JSON.parse(run(['-count_frames', '-show_entries', 'stream=index,codec_type,width,height,nb_read_frames', '-of', 'json'])).streams as { index: number; codec_type: string; width?: number; height?: number; nb_read_frames: string }[];
  const ends = new Map<number, number>();
  for (const line of run(['-show_entries', 'packet=stream_index,pts_time,duration_time', '-of', 'csv=p=0']).trim().split('\n')) {
    const [index, pts, length] = line.split(',');
    ends.set(Number(index), Math.max(ends.get(Number(index)) ?? 0, Number(pts) + (Number(length) || 0)));
  }
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video || !audio || streams.length !== 2) throw new Error(`${file}: streams ${streams.map((s) => s.codec_type).join(', ')}, not one video and one audio`);
  const frames = Number(video.nb_read_frames);
  return {
    duration,
    video: { width: video.width, height: video.height, frames, end: ends.get(video.index)! },
    audio: { end: ends.get(audio.index)! },
    framesPerSecond: frames / ends.get(video.index)!,
  };
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One frame of the recording at `seconds` (ffmpeg), as grey levels, with statistics over a region. */
export function frameAt(file: string, seconds: number) {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-ss', String(Math.max(0, seconds)), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 8 * 1024 * 1024 });
  const pixels = result.stdout as Buffer;
  if (pixels.length !== compositeWidth * compositeHeight) throw new Error(`${file} at ${seconds} s: ${pixels.length} bytes, not a ${compositeWidth}×${compositeHeight} frame`);
  const each = ({ x, y, width, height }: Region, visit: (offset: number) => void) => {
    for (let row = Math.round(y); row < Math.round(y + height); row++) for (let col = Math.round(x); col < Math.round(x + width); col++) visit(row * compositeWidth + col);
  };
  return {
    pixels,
    region(box: Region) {
      let sum = 0;
      let squares = 0;
      let count = 0;
      each(box, (at) => {
        const v = pixels[at]!;
        sum += v;
        squares += v * v;
        count++;
      });
      const mean = sum / count;
      return { mean, stddev: Math.sqrt(Math.max(0, squares / count - mean * mean)) };
    },
    /** The share of a region's pixels that differ from another frame's by more than `levels` grey levels (0: nothing moved; codec noise stays below). */
    movedShare(other: { pixels: Buffer }, box: Region, levels = 40) {
      let moved = 0;
      let count = 0;
      each(box, (at) => {
        if (Math.abs(pixels[at]! - other.pixels[at]!) > levels) moved++;
        count++;
      });
      return moved / count;
    },
  };
}
