import { afterEach, vi } from 'vitest';

// A test that logs console.error fails: errors are asserted, never ignored.
const calls: unknown[][] = [];
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  calls.push(args);
});

afterEach(() => {
  if (calls.length === 0) return;
  const logged = calls.splice(0).map((args) => args.map(String).join(' '));
  throw new Error(`console.error was called:\n${logged.join('\n')}`);
});
