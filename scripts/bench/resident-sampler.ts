/**
 * `node scripts/bench/resident-sampler.ts <pid>`: samples the process tree's
 * memory with each page counted once (residentOnce, load.ts) every 100 ms until
 * SIGTERM, then prints the highest value seen (bytes, or null) and exits.
 *
 * Its own process: a sample reads the tree's page tables (~50–200 ms), which in
 * the bench's process would delay its polling of /healthz and so the start-up
 * time it measures. It still takes CPU while the server starts, so the bench
 * runs it on the first start only (the restarts are the timed figure).
 */
import { residentOnce } from './load.ts';

const pid = Number(process.argv[2]);
let peak: number | null = null;
let stopped = false;
process.on('SIGTERM', () => {
  stopped = true;
});
while (!stopped) {
  const now = residentOnce(pid);
  if (now !== null && (peak === null || now > peak)) peak = now;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
process.stdout.write(`${JSON.stringify(peak)}\n`);
