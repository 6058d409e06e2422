const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A date as British English writes it, "7 January 2024", in UTC: posts, text pages, reviews. */
export function formatDay(date: Date): string {
  return dayFormat.format(date);
}
