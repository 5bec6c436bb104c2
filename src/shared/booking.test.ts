import { describe, expect, it } from 'vitest';
import { contactSchema, createUploadInput, fileTooLargeMessage, holdInput, unsupportedFileMessage } from './booking.ts';

const valid = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+1 (515) 555-0100' };
const errors = (input: Record<string, string>) => contactSchema.safeParse({ ...valid, ...input }).error?.flatten().fieldErrors;

describe('contact schema', () => {
  it('accepts a complete contact and trims it', () => {
    expect(contactSchema.parse({ ...valid, firstName: '  Ada ' }).firstName).toBe('Ada');
  });

  it("answers each empty field with the spec's 'required' message only", () => {
    expect(errors({ firstName: '', lastName: '', email: '', phone: '' })).toEqual({
      firstName: ['First name is required'],
      lastName: ['Last name is required'],
      email: ['Email is required'],
      phone: ['Phone number is required'],
    });
  });

  it('wants a simple email shape and at least 10 digits in the phone', () => {
    for (const email of ['ada', 'ada@example', 'ada example@x.com', '@example.com']) {
      expect(errors({ email })).toEqual({ email: ['Please enter a valid email address'] });
    }
    expect(errors({ phone: '555-0100' })).toEqual({ phone: ['Please enter a valid phone number'] });
    expect(errors({ phone: 'call me maybe' })).toEqual({ phone: ['Please enter a valid phone number'] });
    expect(errors({ phone: '515.555.0100' })).toBeUndefined();
  });
});

describe('file messages and inputs', () => {
  it("use the spec's wording", () => {
    expect(fileTooLargeMessage('a.pdf')).toBe('a.pdf exceeds the maximum file size of 10MB.');
    expect(unsupportedFileMessage('a.doc')).toBe('a.doc is not a supported file type. Please upload PDF, JPEG, or PNG.');
  });

  it('refuse malformed ids and accept ISO instants for holds', () => {
    expect(createUploadInput.safeParse({ bookingId: 'nope', fileName: 'a.pdf', sizeBytes: 1 }).success).toBe(false);
    const parsed = holdInput.parse({ bookingId: '3f1c1f0e-8a8f-4f57-9f0e-1c2d3e4f5a6b', startsAt: '2027-03-14T13:00:00Z', timeZone: 'UTC' });
    expect(parsed.startsAt).toEqual(new Date('2027-03-14T13:00:00Z'));
  });
});
