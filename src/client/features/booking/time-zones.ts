/** The zones offered in the picker: the continental US, Alaska and Hawaii. */
export const usTimeZones = [
  { id: 'America/New_York', label: 'Eastern Time' },
  { id: 'America/Chicago', label: 'Central Time' },
  { id: 'America/Denver', label: 'Mountain Time' },
  { id: 'America/Phoenix', label: 'Arizona Time' },
  { id: 'America/Los_Angeles', label: 'Pacific Time' },
  { id: 'America/Anchorage', label: 'Alaska Time' },
  { id: 'Pacific/Honolulu', label: 'Hawaii Time' },
] as const;

/** The picker's options: the US zones plus the detected (or saved) zone when it is not one of them. */
export function timeZoneOptions(...extra: string[]): { id: string; label: string }[] {
  const options: { id: string; label: string }[] = [...usTimeZones];
  for (const zone of extra) {
    if (zone && !options.some((o) => o.id === zone)) options.push({ id: zone, label: zone.replaceAll('_', ' ') });
  }
  return options;
}
