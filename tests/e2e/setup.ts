import { beforeEach } from 'vitest';
import { browserEvents, resetBrowserEvents } from './browser.ts';

// Beside tests/setup/report-retried-failures.ts: a failed attempt also prints what its browsers saw.
beforeEach(({ onTestFailed }) => {
  resetBrowserEvents();
  onTestFailed(() => {
    if (browserEvents.length > 0) process.stderr.write(`what the browsers saw:\n${browserEvents.join('\n')}\n`);
  });
});
