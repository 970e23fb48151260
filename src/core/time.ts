/** The clock of the domain. Times are computed here, never by SQL, so journal replay is exact. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function iso(date: Date): string {
  return date.toISOString();
}

/** Whole seconds between two ISO times (never negative). */
export function secondsBetween(startIso: string, end: Date): number {
  return Math.max(0, Math.round((end.getTime() - Date.parse(startIso)) / 1000));
}
