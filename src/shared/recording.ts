/**
 * The session recording's composite and the words the notary reads about it
 * (docs/decisions/103-recording-composite.md). Shared: the room shows these
 * messages, the server sets `recordingStalled`, tests import both.
 */

/** The recorded picture: 720p, every participant's camera, the document view, a UTC clock. */
export const compositeWidth = 1280;
export const compositeHeight = 720;
/** The promise: at least this many frames per second in the stored file. */
export const minimumFramesPerSecond = 15;
/** The drawing rate: a little above the promise, so a late tick now and then still keeps it. */
export const compositeFramesPerSecond = 16;
/** The band across the top with the booking reference and the clock. */
export const compositeBandHeight = 40;
/** One MediaRecorder chunk every this often, uploaded at once. */
export const recordingTimesliceMs = 2000;

/** The clock burned into every frame: `2026-11-26 14:03:07 UTC`. */
export function utcClock(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export const recordingMessages = {
  /** An upload failed (network, server error): it is retried; the notary knows at once. */
  uploadFailing:
    'The recording is not reaching our server. Check your internet connection. Keep this window open: the missing parts are kept in this browser and sent as soon as the connection is back.',
  /** The server refused a part (signed out, room closed): retrying will not help. */
  uploadRefused: 'The recording is no longer being saved. Stop the recording, then start it again.',
  /** The recorder itself stopped producing parts (camera or browser problem). */
  recorderStalled: 'The recording has stopped in this browser. Stop the recording, then start it again.',
  /** The server has not received a part for a while (shown from the session view). */
  serverStalled: 'Our server has not received the recording for a while. If this window says the recording is running, check your internet connection; otherwise stop the recording and start it again.',
  noDocument: 'No document on screen',
} as const;
