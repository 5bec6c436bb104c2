import { beforeEach } from 'vitest';

// A test that fails and then passes on its retry is reported only as "(retry x1)": the
// first attempt's error is written to stderr here, so a CI log says what missed its window.
beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    const errors = task.result?.errors ?? [];
    const text = errors.map((error) => error.stack ?? error.message).join('\n');
    process.stderr.write(`attempt ${task.result?.retryCount ?? 0} of "${task.name}" failed:\n${text}\n`);
  });
});
