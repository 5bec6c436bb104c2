import { describe, expect, it } from 'vitest';
import { describeMediaError } from './device-check.tsx';

describe('device check messages', () => {
  it('says what happened and what to do, for refused access, missing devices and busy devices', () => {
    expect(describeMediaError(new DOMException('denied', 'NotAllowedError')).title).toBe('Camera and microphone access was refused.');
    expect(describeMediaError(new DOMException('denied', 'NotAllowedError')).help).toMatch(/Allow .*Try again/);
    expect(describeMediaError(new DOMException('none', 'NotFoundError')).title).toBe('No camera or microphone was found.');
    expect(describeMediaError(new DOMException('busy', 'NotReadableError')).title).toBe('Your camera or microphone is in use by another program.');
    expect(describeMediaError(new Error('other')).help).toMatch(/Try again/);
  });
});
